import Serving

/// A stream of the Google Reader API, and which items it holds.
enum ReaderStream: Equatable {
  /// `user/-/state/com.google/reading-list`: every item.
  case readingList
  /// `…/read`.
  case read
  /// `…/starred`: the bookmarks.
  case starred
  /// `…/kept-unread`: none here (an item is unread until read).
  case keptUnread
  /// `feed/<name>`.
  case feed(String)
  /// `user/-/label/<name>`: a tag's feeds, or a saved search's matches.
  case label(String)

  static let statePrefix = "user/-/state/com.google/"
  static let labelPrefix = "user/-/label/"

  /// The stream `id` names (`user/1234/…` read as `user/-/…`).
  ///
  /// - Throws: ``HTTPError/badRequest(_:)`` for a stream this server does not have.
  init(_ id: String) throws(HTTPError) {
    var id = id
    if id.hasPrefix("user/"), let slash = id.dropFirst(5).firstIndex(of: "/") {
      id = "user/-" + id[slash...]
    }
    switch id {
    case Self.statePrefix + "reading-list": self = .readingList
    case Self.statePrefix + "read": self = .read
    case Self.statePrefix + "starred": self = .starred
    case Self.statePrefix + "kept-unread": self = .keptUnread
    default:
      if id.hasPrefix("feed/"), id.count > 5 {
        self = .feed(String(id.dropFirst(5)))
      } else if id.hasPrefix(Self.labelPrefix), id.count > Self.labelPrefix.count {
        self = .label(String(id.dropFirst(Self.labelPrefix.count)))
      } else {
        throw .badRequest("no such stream")
      }
    }
  }

  /// Its id.
  var id: String {
    switch self {
    case .readingList: Self.statePrefix + "reading-list"
    case .read: Self.statePrefix + "read"
    case .starred: Self.statePrefix + "starred"
    case .keptUnread: Self.statePrefix + "kept-unread"
    case .feed(let name): "feed/" + name
    case .label(let name): Self.labelPrefix + name
    }
  }

  /// Whether it holds an item, as of `served`.
  func holds(in served: ServedRequest) throws -> (ServedItem) -> Bool {
    switch self {
    case .readingList: return { _ in true }
    case .read: return { served.marks.isRead($0) }
    case .starred: return { served.marks.isStarred($0) }
    case .keptUnread: return { _ in false }
    case .feed(let name): return { $0.feed == name }
    case .label(let name):
      let feeds = Set(served.library.feeds.filter { $0.labels.contains(name) }.map(\.name))
      var matches = Set<String>()
      if let query = served.library.searches[name] {
        matches = try served.cache.matches(
          of: name, query: query, generation: served.generation, services: served.services)
      }
      return { feeds.contains($0.feed) || matches.contains($0.id) }
    }
  }
}

/// The items a stream request asks for: `s` (or the path's stream), `xt` and `it` (excluded and
/// required streams, repeatable), `ot` and `nt` (came after and before, in seconds), `r=o`
/// (oldest first), `n` (how many) and `c` (the continuation of the page before).
struct StreamPage {
  var items: [ServedItem]
  /// Where the next page starts; `nil` on the last.
  var continuation: String?

  /// The page `served` asks of `stream`, at most `limit` items (`n` asks fewer).
  ///
  /// - Throws: ``HTTPError/badRequest(_:)`` for a stream, number or continuation that does not
  ///   read.
  init(_ stream: ReaderStream, _ served: ServedRequest, defaultCount: Int, limit: Int) throws {
    let holds = try stream.holds(in: served)
    let excluded = try served.request.parameters("xt").filter { !$0.isEmpty }.map {
      try ReaderStream($0).holds(in: served)
    }
    let required = try served.request.parameters("it").filter { !$0.isEmpty }.map {
      try ReaderStream($0).holds(in: served)
    }
    let count = Int(clamping: try served.integer("n") ?? Int64(defaultCount))
    guard count > 0 else { throw HTTPError.badRequest("'n' must be at least 1") }
    let newer = try served.integer("ot").map(Double.init)
    let older = try served.integer("nt").map(Double.init)
    let oldestFirst = served.parameter("r") == "o"
    var after: (time: Int64, number: Int64)?
    if let continuation = served.parameter("c") {
      // `<microseconds>_<number>`: the time may be negative (a date before 1970).
      let parts = continuation.split(separator: "_")
      guard parts.count == 2, let time = Int64(parts[0]), let number = Int64(parts[1]) else {
        throw HTTPError.badRequest("'c' is not a continuation this server gave")
      }
      after = (time, number)
    }
    let wanted = min(count, limit)
    var page: [ServedItem] = []
    var more = false
    let all = served.library.items
    let places = oldestFirst ? Array(all.indices.reversed()) : Array(all.indices)
    for place in places {
      let item = all[place]
      if let after {
        let key = (item.microseconds, item.number)
        // Newest first: past the cursor means older (or as old, numbered lower).
        let past = oldestFirst ? key > after : key < after
        guard past else { continue }
      }
      if let newer, item.crawled < newer { if oldestFirst { continue } else { break } }
      if let older, item.crawled >= older { if oldestFirst { break } else { continue } }
      guard holds(item), required.allSatisfy({ $0(item) }), !excluded.contains(where: { $0(item) })
      else { continue }
      if page.count == wanted {
        more = true
        break
      }
      page.append(item)
    }
    items = page
    continuation = more ? page.last.map { "\($0.microseconds)_\($0.number)" } : nil
  }
}
