import Foundation
import NewsCore
import Serving

/// The Google Reader API's changes, each made as the command line makes it: marks through
/// `news read`'s and `news bookmark`'s service (queued for an account's server first),
/// subscriptions through `news sources`'.
enum ReaderEdits {
  static func answer(_ endpoint: String, _ served: ServedRequest) throws -> HTTPResponse {
    switch endpoint {
    case "edit-tag": return try editTag(served)
    case "mark-all-as-read": return try markAllAsRead(served)
    case "subscription/edit": return try editSubscription(served)
    case "subscription/quickadd": return try quickAdd(served)
    case "rename-tag": return try renameTag(served)
    default: return try disableTag(served)
    }
  }

  /// `edit-tag`: `i` (repeated) gains the states of `a` and loses those of `r` (read, starred,
  /// kept-unread; other tags are not kept here).
  static func editTag(_ served: ServedRequest) throws -> HTTPResponse {
    let (items, missing) = try served.items(served.request.parameters("i"))
    let lists = try served.services.lists()
    let ids = items.map(\.id)
    for (tag, adding) in served.request.parameters("a").map({ ($0, true) })
      + served.request.parameters("r").map({ ($0, false) })
    {
      switch try? ReaderStream(tag) {
      case .read?: try lists.mark(ids, read: adding)
      case .keptUnread?: if adding { try lists.mark(ids, read: false) }
      case .starred?:
        if adding {
          try lists.bookmark(served.articles(of: items).map(\.article))
        } else {
          try lists.unbookmark(ids)
        }
      default: continue
      }
    }
    return HTTPResponse.text("OK").noting(missing: missing)
  }

  /// `mark-all-as-read`: every item of stream `s` up to `ts` (microseconds; now without it).
  static func markAllAsRead(_ served: ServedRequest) throws -> HTTPResponse {
    guard let stream = served.parameter("s") else {
      throw HTTPError.badRequest("'s' (the stream) is missing")
    }
    let holds = try ReaderStream(stream).holds(in: served)
    let until = try served.integer("ts") ?? Int64.max
    let ids = served.library.items.filter {
      $0.microseconds <= until && !served.marks.isRead($0) && holds($0)
    }.map(\.id)
    if !ids.isEmpty { try served.services.lists().mark(ids, read: true) }
    return .text("OK")
  }

  /// `subscription/edit`: `ac=subscribe` (`s=feed/<url>`, `a=user/-/label/<folder>`),
  /// `unsubscribe` (`s=feed/<name>`), `edit` (`a` and `r` labels).
  static func editSubscription(_ served: ServedRequest) throws -> HTTPResponse {
    let streams = served.request.parameters("s")
    guard !streams.isEmpty else { throw HTTPError.badRequest("'s' (the feed) is missing") }
    let adding = try labels(served.request.parameters("a"))
    let removing = try labels(served.request.parameters("r"))
    switch served.parameter("ac") {
    case "subscribe":
      for stream in streams {
        let name = try subscribe(try address(stream), served)
        try setLabels(of: name, adding: adding, removing: [], served)
      }
    case "unsubscribe":
      for stream in streams {
        let name = try feedName(stream, served)
        let services = served.services
        _ = try blocking { try await services.removeSource(name) }
      }
    case "edit":
      for stream in streams {
        try setLabels(of: try feedName(stream, served), adding: adding, removing: removing, served)
      }
    default:
      throw HTTPError.badRequest("'ac' is subscribe, unsubscribe or edit")
    }
    return .text("OK")
  }

  /// `subscription/quickadd`: subscribes to `quickadd` (a feed, or a page announcing one).
  static func quickAdd(_ served: ServedRequest) throws -> HTTPResponse {
    guard let given = served.parameter("quickadd") else {
      throw HTTPError.badRequest("'quickadd' (the address) is missing")
    }
    let name = try subscribe(try address(given), served)
    return .json(
      .object([
        ("numResults", .int(1)), ("query", .string(given)), ("streamId", .string("feed/" + name)),
        ("streamName", .string(name)),
      ]))
  }

  /// `rename-tag`: the label `s` becomes `dest` on every feed filed under it.
  static func renameTag(_ served: ServedRequest) throws -> HTTPResponse {
    guard let from = try labels([served.parameter("s") ?? served.parameter("t") ?? ""]).first,
      let to = try labels([served.parameter("dest") ?? ""]).first
    else { throw HTTPError.badRequest("'s' and 'dest' name the label and its new name") }
    for feed in served.library.feeds where feed.labels.contains(from) {
      try setLabels(of: feed.name, adding: [to], removing: [from], served)
    }
    return .text("OK")
  }

  /// `disable-tag`: the label `s` is taken off every feed.
  static func disableTag(_ served: ServedRequest) throws -> HTTPResponse {
    guard let label = try labels([served.parameter("s") ?? served.parameter("t") ?? ""]).first
    else { throw HTTPError.badRequest("'s' names the label") }
    for feed in served.library.feeds where feed.labels.contains(label) {
      try setLabels(of: feed.name, adding: [], removing: [label], served)
    }
    return .text("OK")
  }

  // MARK: Helpers

  /// Subscribes to `url` as `news sources add` does (the feed fetched and kept); its name.
  private static func subscribe(_ url: URL, _ served: ServedRequest) throws -> String {
    let services = served.services
    let name = try blocking {
      let added = try await services.subscriptions().add(url, name: nil, ttl: nil)
      _ = try await services.keep(added)
      return added.name
    }
    served.cache.forget()
    return name
  }

  /// The labels of `user/-/label/<name>` streams (a bare name too, as some apps send).
  private static func labels(_ streams: [String]) throws -> [String] {
    try streams.filter { !$0.isEmpty }.map { stream in
      if case .label(let name)? = try? ReaderStream(stream) { return name }
      guard !stream.contains("/") else {
        throw HTTPError.badRequest("'\(stream)' is not a label")
      }
      return stream
    }
  }

  /// The URL of `feed/<url>` (a `feed://` address, as apps pass on a link, is its http one).
  private static func address(_ stream: String) throws -> URL {
    let text = stream.hasPrefix("feed/") ? String(stream.dropFirst(5)) : stream
    guard let url = URL.feed(text) else { throw HTTPError.badRequest("not an http(s) address") }
    return url
  }

  /// The source `feed/<name>` names (or `feed/<url>`: the source of that address).
  private static func feedName(_ stream: String, _ served: ServedRequest) throws -> String {
    guard case .feed(let key)? = try? ReaderStream(stream) else {
      throw HTTPError.badRequest("'s' is not a feed")
    }
    if let feed = served.library.feed(named: key)
      ?? served.library.feeds.first(where: { $0.url == key })
    {
      return feed.name
    }
    throw HTTPError.badRequest("no such feed")
  }

  /// Files the source `name` under `adding` and takes it out of `removing`.
  private static func setLabels(
    of name: String, adding: [String], removing: [String], _ served: ServedRequest
  ) throws {
    guard !adding.isEmpty || !removing.isEmpty else { return }
    let services = try served.fresh()
    let current = services.feedSources().first { $0.name == name }?.tags ?? []
    var tags = current.filter { !removing.contains($0) }
    for label in adding where !tags.contains(label) { tags.append(label) }
    try services.subscriptions().set(name, SourceSettings(tags: tags))
    served.cache.forget()
  }
}
