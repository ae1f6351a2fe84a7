import Foundation
import NewsCore
import Serving

/// The Fever API at `/fever/?api`: every answer holds `api_version`, `auth` and
/// `last_refreshed_on_time`, and what the request's words ask (`groups`, `feeds`, `items`,
/// `unread_item_ids`, `saved_item_ids`, `favicons`, `links`); `mark` changes an item, a feed or
/// a group (`before` a time). Items come 50 at a time, by number: `since_id` (greater, smallest
/// first), `max_id` (smaller, greatest first), `with_ids` (those named).
enum FeverAPI {
  /// Items one page holds.
  static let pageSize = 50

  /// The answer to a wrong key.
  static let refused: JSONValue = .object([("api_version", .int(3)), ("auth", .int(0))])

  static func answer(_ served: ServedRequest) throws -> HTTPResponse {
    let words = Set(served.request.parameters.map(\.name))
    var missing = 0
    if words.contains("mark") { missing = try mark(served) }
    // Read again after a mark: the answer says what it changed.
    var members: [(String, JSONValue)] = [
      ("api_version", .int(3)), ("auth", .int(1)),
      ("last_refreshed_on_time", .int(Int(served.library.items.first?.crawled ?? 0))),
    ]
    let library = served.library
    let marks =
      words.contains("mark")
      ? try ServedMarks.load(try served.services.articleStore()) : served.marks
    if words.contains("groups") || words.contains("feeds") {
      let labels = library.labels.filter { label in
        library.feeds.contains { $0.labels.contains(label) }
      }
      if words.contains("groups") {
        members.append(
          (
            "groups",
            .array(labels.map { .object([("id", .int(group($0))), ("title", .string($0))]) })
          ))
      }
      if words.contains("feeds") {
        members.append(("feeds", .array(library.feeds.map(feed))))
      }
      members.append(
        (
          "feeds_groups",
          .array(
            labels.map { label in
              .object([
                ("group_id", .int(group(label))),
                (
                  "feed_ids",
                  .string(
                    library.feeds.filter { $0.labels.contains(label) }.map { String($0.number) }
                      .joined(separator: ","))
                ),
              ])
            })
        ))
    }
    if words.contains("items") {
      let (items, missingIDs) = try page(served)
      missing += missingIDs
      members.append(
        ("items", .array(try served.articles(of: items).map { item($0, $1, marks) })))
      members.append(("total_items", .int(library.items.count)))
    }
    if words.contains("unread_item_ids") {
      members.append(
        (
          "unread_item_ids",
          .string(ids(library.items.filter { !marks.read.contains($0.id) }))
        ))
    }
    if words.contains("saved_item_ids") {
      members.append(
        (
          "saved_item_ids",
          .string(ids(library.items.filter { marks.starred.contains($0.id) }))
        ))
    }
    if words.contains("favicons") { members.append(("favicons", .array([]))) }
    if words.contains("links") { members.append(("links", .array([]))) }
    return HTTPResponse.json(.object(members)).noting(missing: missing)
  }

  /// A group's number.
  static func group(_ label: String) -> Int { ServedFeed.number(of: "group\0" + label) }

  private static func feed(_ feed: ServedFeed) -> JSONValue {
    .object([
      ("id", .int(feed.number)), ("favicon_id", .int(0)), ("title", .string(feed.title)),
      ("url", .string(feed.url)), ("site_url", .string(feed.page)), ("is_spark", .int(0)),
      ("last_updated_on_time", .int(0)),
    ])
  }

  private static func item(_ item: ServedItem, _ article: Article, _ marks: ServedMarks)
    -> JSONValue
  {
    .object([
      ("id", .int(Int(item.number))),
      ("feed_id", .int(ServedFeed.number(of: "feed\0" + item.feed))),
      ("title", .string(article.title)), ("author", .string(article.author ?? "")),
      ("html", .string(ReaderItem.html(article))),
      ("url", .string(article.url ?? "")),
      ("is_saved", .int(marks.isStarred(item) ? 1 : 0)),
      ("is_read", .int(marks.isRead(item) ? 1 : 0)),
      ("created_on_time", .int(Int(item.time))),
    ])
  }

  private static func ids(_ items: [ServedItem]) -> String {
    items.map { String($0.number) }.joined(separator: ",")
  }

  /// The page of items asked: `with_ids`, `max_id`, else `since_id` (0 without it).
  private static func page(_ served: ServedRequest) throws -> ([ServedItem], Int) {
    let library = served.library
    if let list = served.parameter("with_ids") {
      let ids = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      guard ids.count <= pageSize else { throw HTTPError.badRequest("more than 50 with_ids") }
      return try served.items(ids)
    }
    let ascending = library.ascending.lazy.map { library.items[$0] }
    if let maximum = try served.integer("max_id") {
      return (Array(ascending.reversed().filter { $0.number < maximum }.prefix(pageSize)), 0)
    }
    let since = try served.integer("since_id") ?? 0
    return (Array(ascending.filter { $0.number > since }.prefix(pageSize)), 0)
  }

  /// `mark=item|feed|group`, `as=read|unread|saved|unsaved`, `id`, `before` (seconds); the ids
  /// that named nothing.
  private static func mark(_ served: ServedRequest) throws -> Int {
    guard let target = served.parameter("mark"), let how = served.parameter("as"),
      let id = try served.integer("id")
    else { throw HTTPError.badRequest("mark needs 'as' and 'id'") }
    let lists = try served.services.lists()
    let library = served.library
    switch target {
    case "item":
      guard let item = library.item(id) else { return 1 }
      switch how {
      case "read": try lists.mark([item.id], read: true)
      case "unread": try lists.mark([item.id], read: false)
      case "saved": try lists.bookmark(served.articles(of: [item]).map(\.article))
      case "unsaved": try lists.unbookmark([item.id])
      default: throw HTTPError.badRequest("'as' is read, unread, saved or unsaved")
      }
    case "feed", "group":
      guard how == "read" else { throw HTTPError.badRequest("a feed or group is marked read") }
      let before = Double(try served.integer("before") ?? Int64(served.now))
      let feeds: Set<String>
      if target == "feed" {
        feeds = Set(library.feeds.filter { Int64($0.number) == id }.map(\.name))
      } else {
        // Group 0 is every feed (Fever's "Kindling").
        feeds = Set(
          library.feeds.filter { feed in
            id == 0 || feed.labels.contains { Int64(group($0)) == id }
          }.map(\.name))
      }
      let ids = library.items.filter {
        feeds.contains($0.feed) && $0.crawled <= before && !served.marks.isRead($0)
      }.map(\.id)
      if !ids.isEmpty { try lists.mark(ids, read: true) }
      if feeds.isEmpty { return 1 }
    default:
      throw HTTPError.badRequest("'mark' is item, feed or group")
    }
    return 0
  }
}
