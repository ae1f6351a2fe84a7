import Foundation
import NewsCore
import Serving
import Synchronization
import TestSupport
import Testing

@testable import NewsServer

/// A store with two feeds and a saved search, served by a ``ReaderServer`` whose requests a test
/// makes directly (no socket): `one` (tagged `news`) with three articles, `two` with two, and
/// the search `urgent` (`title:urgent`).
final class ServedStore: Sendable {
  let directory = TemporaryDirectory()
  let services: NewsServices
  let reader: ReaderServer
  /// The throttle's clock, in seconds: moved by the test alone.
  let clock = ManualSeconds()
  /// 2026-11-02T10:00:00Z.
  static let start = 1_793_613_600.0

  /// The login set, if any: the helpers sign in with it.
  let login: ServerLogin?

  init(login: ServerLogin? = nil) throws {
    self.login = login
    let config = """
      {"sources": [
        {"name": "one", "url": "https://one.example/feed.xml", "title": "One \\u001b[31mNews",
         "tags": ["news"], "site": "https://ann:secretpw@one.example/"},
        {"name": "two", "url": "https://ann:secretpw@two.example/feed.xml"},
        {"name": "urgent", "search": "title:urgent"},
        {"name": "a", "enabled": false}, {"name": "b", "enabled": false},
        {"name": "c", "enabled": false}]}
      """
    try Data(config.utf8).write(to: directory.url.appendingPathComponent("config.json"))
    let configuration = try Configuration(environment: [
      "HOME": directory.url.path, "NEWS_HOME": directory.path("home"),
      "NEWS_CONFIG": directory.path("config.json"),
      "NEWS_STORE_KEY": Data(repeating: 7, count: 32).base64EncodedString(),
    ])
    // config.json read again at each request, as the command's services are when it changes.
    let load: @Sendable () throws -> NewsServices = {
      NewsServices(
        configuration: configuration, configFile: try FeedConfigFile.load(configuration),
        dependencies: NewsDependencies(
          httpClient: URLSessionHTTPClient(),
          timing: .test(now: Date(timeIntervalSince1970: Self.start + 3_600)),
          randomBytes: SecureRandom.bytes, timeZone: .gmt),
        providers: ProviderRegistry([]))
    }
    let services = try load()
    self.services = services
    let clock = self.clock
    reader = ReaderServer(services: load, clock: { clock.now })
    let store = try services.articleStore()
    if let login { try store.setServerLogin(login) }
    try keep(
      [("one", "First", 1), ("one", "Second urgent", 2), ("one", "Third", 3)], in: store)
    try keep([("two", "Alpha", 4), ("two", "Beta", 5)], in: store)
  }

  /// Keeps articles `(feed, title, minutes after start)`, each first seen when published.
  func keep(_ articles: [(String, String, Int)], in store: ArticleStore? = nil) throws {
    let store = try store ?? services.articleStore()
    for (feed, group) in Dictionary(grouping: articles, by: \.0) {
      let kept = group.map { _, title, minutes in
        Article(
          id: "\(feed)-\(title.lowercased().replacingOccurrences(of: " ", with: "-"))",
          provider: feed, title: title, description: "About \(title)",
          url: "https://\(feed).example/\(minutes)",
          publishedAt: Date(timeIntervalSince1970: Self.start + Double(minutes * 60)))
      }
      try store.keep(kept, provider: feed)
      for article in kept {
        try store.noteArrivals([article.id], at: article.publishedAt ?? Date())
      }
    }
  }

  /// What the server answers.
  struct Answer {
    var status: Int
    var headers: [(name: String, value: String)]
    var text: String
    var note: String?

    func header(_ name: String) -> String? {
      headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    func json() throws -> [String: Any] {
      try #require(
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }
  }

  /// Asks `target`: a GET, or a form POST of `form`.
  func ask(
    _ target: String, form: [(String, String)]? = nil, auth: String? = nil,
    from address: String = "127.0.0.1"
  ) throws -> Answer {
    var headers: [(name: String, value: String)] = []
    if let auth { headers.append(("Authorization", "GoogleLogin auth=" + auth)) }
    var body: [UInt8] = []
    if let form {
      headers.append(("Content-Type", "application/x-www-form-urlencoded"))
      body = Array(
        form.map { Self.escape($0.0) + "=" + Self.escape($0.1) }.joined(separator: "&").utf8)
    }
    let request = try HTTPRequest(
      method: form == nil ? "GET" : "POST", target: target, headers: headers, body: body)
    let response = reader.handle(request, peer: HTTPServer.Peer(address: address, port: 50_000))
    return Answer(
      status: response.status, headers: response.headers,
      text: String(decoding: response.body, as: UTF8.self), note: response.note)
  }

  /// `/reader/api/0/<endpoint>` as JSON.
  func reader(_ endpoint: String, auth: String? = nil) throws -> [String: Any] {
    let answer = try ask(
      GoogleReaderAPI.prefix + endpoint, auth: auth ?? ReaderServer.authToken(login))
    #expect(answer.status == 200, "\(endpoint): \(answer.text)")
    return try answer.json()
  }

  /// The ids of `stream/items/ids` for `query`.
  func ids(_ query: String) throws -> [Int64] {
    let answer = try reader("stream/items/ids?" + query)
    let references = answer["itemRefs"] as? [[String: Any]] ?? []
    return references.compactMap { ($0["id"] as? String).flatMap { Int64($0) } }
  }

  /// The number of the article titled `title`.
  func number(of title: String) throws -> Int64 {
    let answer = try reader("stream/contents?n=1000")
    let items = answer["items"] as? [[String: Any]] ?? []
    let id = try #require(items.first { $0["title"] as? String == title }?["id"] as? String)
    return try #require(ServedItem.number(id))
  }

  /// `body`'s result, computed on a thread of its own (what may wait for a task: subscribing).
  static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      Thread { continuation.resume(with: Result { try body() }) }.start()
    }
  }

  static func escape(_ text: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
  }
}

/// Seconds that pass only when a test says.
final class ManualSeconds: Sendable {
  private let value = Mutex(0.0)
  var now: Double { value.withLock { $0 } }
  func advance(_ seconds: Double) { value.withLock { $0 += seconds } }
}
