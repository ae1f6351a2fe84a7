import Foundation
import NewsCore
import Testing

@testable import NewsServer

/// The Fever API as Unread and Reeder call it.
@Suite("news serve: the Fever API")
struct FeverServeTests {
  static let login = ServerLogin(user: "ann", password: "pw", fever: true, iterations: 2)
  /// A key of Fever's shape that the login does not make: another password's.
  static let wrongKey =
    ServerLogin(user: "ann", password: "not pw", fever: true, iterations: 2).feverKey ?? ""

  func fever(_ served: ServedStore, _ words: String, form: [(String, String)] = []) throws
    -> [String: Any]
  {
    let answer = try served.ask(
      "/fever/?api" + words, form: [("api_key", Self.login.feverKey ?? "")] + form)
    #expect(answer.status == 200)
    let json = try answer.json()
    #expect(json["api_version"] as? Int == 3 && json["auth"] as? Int == 1, "\(json)")
    return json
  }

  @Test("groups and feeds, with feeds_groups")
  func groupsAndFeeds() throws {
    let served = try ServedStore(login: Self.login)
    let answer = try fever(served, "&groups&feeds")
    let groups = answer["groups"] as? [[String: Any]] ?? []
    #expect(groups.compactMap { $0["title"] as? String } == ["news"])
    let feeds = answer["feeds"] as? [[String: Any]] ?? []
    #expect(feeds.compactMap { $0["title"] as? String } == ["One News", "two"])
    let link = (answer["feeds_groups"] as? [[String: Any]])?.first
    #expect(link?["group_id"] as? Int == groups.first?["id"] as? Int)
    #expect(link?["feed_ids"] as? String == "\(feeds[0]["id"] as? Int ?? 0)")
  }

  @Test("items by since_id page through everything in number order; max_id back; with_ids")
  func items() throws {
    let served = try ServedStore(login: Self.login)
    var since = 0
    var titles: [String] = []
    var numbers: [Int] = []
    for _ in 0..<10 {
      let page = try fever(served, "&items&since_id=\(since)")["items"] as? [[String: Any]] ?? []
      if page.isEmpty { break }
      titles += page.compactMap { $0["title"] as? String }
      numbers += page.compactMap { $0["id"] as? Int }
      since = numbers.last ?? since
    }
    // Numbers were given oldest first: a later article has a greater one.
    #expect(titles == ["First", "Second urgent", "Third", "Alpha", "Beta"])
    #expect(numbers == numbers.sorted() && Set(numbers).count == 5)
    let back = try fever(served, "&items&max_id=\(numbers[2])")["items"] as? [[String: Any]]
    #expect(back?.compactMap { $0["title"] as? String } == ["Second urgent", "First"])
    let named = try fever(served, "&items&with_ids=\(numbers[4]),\(numbers[0]),424242")
    #expect(
      (named["items"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == [
        "Beta", "First",
      ])
    #expect(named["total_items"] as? Int == 5)
    let many = (0..<51).map(String.init).joined(separator: ",")
    #expect(
      try served.ask(
        "/fever/?api&items&with_ids=\(many)", form: [("api_key", Self.login.feverKey ?? "")]
      ).status == 400)
  }

  @Test("mark an item read, saved; a feed and a group read before a time")
  func marks() throws {
    let served = try ServedStore(login: Self.login)
    let all = try fever(served, "&unread_item_ids")["unread_item_ids"] as? String
    #expect(all?.split(separator: ",").count == 5)
    let first = try served.number(of: "First")
    _ = try fever(served, "", form: [("mark", "item"), ("as", "read"), ("id", String(first))])
    let unread = try fever(served, "&unread_item_ids")["unread_item_ids"] as? String ?? ""
    #expect(!unread.split(separator: ",").contains(Substring(String(first))))
    _ = try fever(served, "", form: [("mark", "item"), ("as", "saved"), ("id", String(first))])
    #expect(try fever(served, "&saved_item_ids")["saved_item_ids"] as? String == String(first))
    let item = (try fever(served, "&items&with_ids=\(first)")["items"] as? [[String: Any]])?.first
    #expect(item?["is_read"] as? Int == 1 && item?["is_saved"] as? Int == 1)
    _ = try fever(served, "", form: [("mark", "item"), ("as", "unsaved"), ("id", String(first))])
    #expect(try fever(served, "&saved_item_ids")["saved_item_ids"] as? String == "")

    let feeds = try fever(served, "&feeds")["feeds"] as? [[String: Any]] ?? []
    let two = try #require(feeds.first { $0["title"] as? String == "two" }?["id"] as? Int)
    let before = Int(ServedStore.start) + 4 * 60
    _ = try fever(
      served, "",
      form: [("mark", "feed"), ("as", "read"), ("id", String(two)), ("before", String(before))])
    let left = try fever(served, "&unread_item_ids")["unread_item_ids"] as? String ?? ""
    #expect(left.split(separator: ",").count == 3)
    _ = try fever(served, "", form: [("mark", "group"), ("as", "read"), ("id", "0")])
    #expect(try fever(served, "&unread_item_ids")["unread_item_ids"] as? String == "")
    let bad = try served.ask(
      "/fever/?api",
      form: [
        ("api_key", Self.login.feverKey ?? ""), ("mark", "item"), ("as", "eaten"),
        ("id", String(first)),
      ])
    #expect(bad.status == 400)
  }

  @Test("a wrong key is auth 0; no key kept (Fever off) refuses every key")
  func refused() throws {
    let served = try ServedStore(login: Self.login)
    let wrong = try served.ask("/fever/?api&items", form: [("api_key", Self.wrongKey)])
    #expect(try wrong.json()["auth"] as? Int == 0 && (try wrong.json()["items"]) == nil)
    let off = try ServedStore(
      login: ServerLogin(user: "ann", password: "pw", fever: false, iterations: 2))
    let key = Self.login.feverKey ?? ""
    #expect(try off.ask("/fever/?api", form: [("api_key", key)]).json()["auth"] as? Int == 0)
    #expect(try served.ask("/fever/").status == 404)
  }
}
