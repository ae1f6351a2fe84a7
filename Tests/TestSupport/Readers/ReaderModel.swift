import Foundation
import Synchronization

/// What a reader's server holds, whatever its API: feeds in folders, items with their read and
/// starred state, each change stamped (``Item/modified``, increasing). The servers of each API
/// (``MinifluxServer``, ``NextcloudServer``, ``TinyTinyRSSServer``, ``FeedbinServer``) answer
/// from one; a test changes it "on another device" through the same calls.
public final class ReaderModel: Sendable {
  /// A subscription.
  public struct Feed: Sendable, Equatable {
    public var id: Int
    public var url: String
    public var title: String
    public var folder: String?

    /// The site it is of (``ReaderModel/site(of:)``).
    public var site: String { ReaderModel.site(of: url) }
  }

  /// The site a feed at `url` is of, as the fakes give it: its address's server, `/` its path.
  public static func site(of url: String) -> String {
    var parts = URLComponents(string: url)
    parts?.path = "/"
    parts?.query = nil
    return parts?.string ?? url
  }

  /// An item.
  public struct Item: Sendable, Equatable {
    public var id: Int
    public var feed: Int
    public var title: String
    public var link: String
    public var content: String
    /// Seconds since 1970.
    public var published: Int
    public var read = false
    public var starred = false
    /// The stamp of its last change (creation, a mark).
    public var modified = 0
    /// An enclosure's URL and type.
    public var enclosure: (url: String, type: String)?

    public static func == (left: Item, right: Item) -> Bool {
      (left.id, left.read, left.starred, left.modified) == (
        right.id, right.read, right.starred, right.modified
      )
    }
  }

  private struct State {
    var feeds: [Feed] = []
    var items: [Item] = []
    var folders: [String] = []
    var stamp = 1_645_120_000_000_000
    var unknown: [String] = []
  }

  private let state = Mutex(State())

  public init() {}

  public var feeds: [Feed] { state.withLock { $0.feeds } }
  public var items: [Item] { state.withLock { $0.items } }
  public var folders: [String] { state.withLock { $0.folders } }
  public func item(_ id: Int) -> Item? { items.first { $0.id == id } }

  /// Adds a feed filed under `folder`; its id.
  @discardableResult
  public func addFeed(url: String, title: String, folder: String? = nil) -> Int {
    state.withLock { state in
      let id = (state.feeds.map(\.id).max() ?? 0) + 1
      state.feeds.append(Feed(id: id, url: url, title: title, folder: folder))
      if let folder, !state.folders.contains(folder) { state.folders.append(folder) }
      return id
    }
  }

  /// Adds a folder; its index + 1 is its id.
  @discardableResult
  public func addFolder(_ name: String) -> Int {
    state.withLock { state in
      if let index = state.folders.firstIndex(of: name) { return index + 1 }
      state.folders.append(name)
      return state.folders.count
    }
  }

  public func addItem(
    id: Int, feed: Int, title: String, link: String, content: String = "", published: Int,
    enclosure: (url: String, type: String)? = nil
  ) {
    state.withLock { state in
      state.stamp += 1
      var item = Item(
        id: id, feed: feed, title: title, link: link, content: content, published: published)
      item.modified = state.stamp
      item.enclosure = enclosure
      state.items.append(item)
    }
  }

  /// Marks made "on another device" (or through the API).
  public func set(_ ids: [Int], read: Bool? = nil, starred: Bool? = nil) {
    state.withLock { state in
      for index in state.items.indices where ids.contains(state.items[index].id) {
        state.stamp += 1
        if let read { state.items[index].read = read }
        if let starred { state.items[index].starred = starred }
        state.items[index].modified = state.stamp
      }
    }
  }

  /// Marks every item of `feed` read (those of id at most `upTo`, when given).
  public func markFeedRead(_ feed: Int, upTo: Int? = nil) {
    let ids = items.filter { $0.feed == feed && $0.id <= (upTo ?? Int.max) }.map(\.id)
    set(ids, read: true)
  }

  /// Deletes an item (a server purging it).
  public func delete(_ id: Int) { state.withLock { $0.items.removeAll { $0.id == id } } }

  /// The host of feeds the server cannot download: each fake answers a subscription to one as
  /// its server does (Tiny Tiny RSS's code 5, Miniflux's 400 and Nextcloud News's 422 with a
  /// message, Feedbin's 404).
  public static let unreachableHost = "unreachable.example"
  /// The host of a page announcing several feeds (Feedbin answers 300 with the list).
  public static let severalFeedsHost = "several.example"

  /// Subscribes to `url` (a feed there already is kept); the feed's id.
  @discardableResult
  public func subscribe(_ url: String, folder: String?) -> Int {
    if let found = feeds.first(where: { $0.url == url }) { return found.id }
    return addFeed(url: url, title: url, folder: folder)
  }

  /// Files the feed `id` under `folder`.
  public func file(_ id: Int, under folder: String) {
    state.withLock { state in
      for index in state.feeds.indices where state.feeds[index].id == id {
        state.feeds[index].folder = folder
      }
      if !state.folders.contains(folder) { state.folders.append(folder) }
    }
  }

  /// Unsubscribes from a feed, deleting its items.
  public func unsubscribe(_ feed: Int) {
    state.withLock { state in
      state.feeds.removeAll { $0.id == feed }
      state.items.removeAll { $0.feed == feed }
    }
  }

  /// Answers a request no route of the API expects: 404, and remembered (a test checks
  /// ``unknownRequests`` is empty).
  public func unknown(_ request: LoopbackServer.Request) -> LoopbackServer.Response {
    state.withLock { $0.unknown.append(request.method + " " + request.target) }
    return LoopbackServer.Response(status: 404, body: Data("no such API".utf8))
  }

  /// The requests no route expected.
  public var unknownRequests: [String] { state.withLock { $0.unknown } }

  /// Items whose stamp is at least `stamp`.
  public func changed(since stamp: Int) -> [Item] { items.filter { $0.modified >= stamp } }
}

/// A fake of a reader's server that the accounts' tests drive the same way for every API: the
/// arguments `accounts add` takes for it, its model, and the requests that change state.
public protocol AccountServerFake: Sendable {
  /// The account kind (`miniflux`).
  var kind: String { get }
  /// What it holds.
  var model: ReaderModel { get }
  /// `accounts add`'s arguments after the name: the kind's option, the URL, the user.
  var addArguments: [String] { get }
  /// The password (or API key) it takes.
  var password: String { get }
  /// The path prefix of its API: every request it expects starts with it.
  var pathPrefix: String { get }
  /// The path a login (or the first request of a sync) goes to.
  var loginPath: String { get }
  /// Whether `request` changes an item's read or starred state.
  func isMark(_ request: LoopbackServer.Request) -> Bool
  /// Whether `request` marks a whole feed read.
  func isFeedMark(_ request: LoopbackServer.Request) -> Bool
  /// The API's answer to `request` (a test that overrides a route may still answer with it).
  func answer(_ request: LoopbackServer.Request) -> LoopbackServer.Response
}

extension LoopbackServer.Response {
  /// A JSON body made of `object` (keys sorted).
  public static func json(object: Any, status: Int = 200, headers: [String: String] = [:])
    -> LoopbackServer.Response
  {
    let data =
      (try? JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])) ?? Data()
    var all = headers
    all["Content-Type"] = "application/json"
    return LoopbackServer.Response(status: status, headers: all, body: data)
  }

  /// A request's JSON body as an object.
  public static func body(_ request: LoopbackServer.Request) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: request.body) as? [String: Any]) ?? [:]
  }
}

/// `value` as an Int, whether a number or a string.
func integer(_ value: Any?) -> Int? {
  switch value {
  case let number as NSNumber: return number.intValue
  case let text as String: return Int(text)
  default: return nil
  }
}

/// A list of ids as numbers, or a comma-separated string.
func integers(_ value: Any?) -> [Int] {
  if let list = value as? [Any] { return list.compactMap(integer) }
  if let text = value as? String { return text.split(separator: ",").compactMap { Int($0) } }
  return []
}
