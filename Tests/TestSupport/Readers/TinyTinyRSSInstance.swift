import Foundation
import NewsCore

/// Debian's Tiny Tiny RSS run for real on 127.0.0.1: PHP's built-in server over the web root
/// `.ci/ttrss-setup` prepares (`NEWS_TEST_TTRSS_WWW`), its database on PostgreSQL 15
/// (`NEWS_TEST_TTRSS_DSN`). TT-RSS refuses to subscribe to loopback URLs, so feeds and articles
/// are written into its database as its updater writes them (``seed()``), and read back there.
public final class TinyTinyRSSInstance: Sendable {
  /// Why it cannot run here, or `nil` when it can.
  public static var unavailableReason: String? {
    guard let www = environment["NEWS_TEST_TTRSS_WWW"], environment["NEWS_TEST_TTRSS_DSN"] != nil,
      FileManager.default.fileExists(atPath: www + "/api/index.php"),
      FileManager.default.isExecutableFile(atPath: php),
      FileManager.default.isExecutableFile(atPath: psql)
    else {
      return "Tiny Tiny RSS is not set up (bash .ci/run does it: eval \"$(bash .ci/ttrss-setup)\" "
        + "sets NEWS_TEST_TTRSS_WWW and NEWS_TEST_TTRSS_DSN)"
    }
    return nil
  }

  static var environment: [String: String] { ProcessInfo.processInfo.environment }
  static var php: String { environment["NEWS_TEST_TTRSS_PHP"] ?? "/usr/bin/php" }
  static let psql = "/usr/bin/psql"

  /// The user the schema makes (`admin`, password `password`), with the API turned on.
  public let user = "admin"
  public let password = "password"
  private let server: ServerProcess

  /// The URL `news accounts add --ttrss` takes: where its web page is.
  public var url: URL { URL(string: "http://127.0.0.1:\(server.port)/")! }

  /// Empties the database of feeds and articles, turns the API on for the user and starts the
  /// server.
  public init() throws {
    guard let www = Self.environment["NEWS_TEST_TTRSS_WWW"] else {
      throw ServerProcessError.didNotStart
    }
    _ = try Self.sql(
      """
      DELETE FROM ttrss_enclosures; DELETE FROM ttrss_user_entries; DELETE FROM ttrss_entries; DELETE FROM ttrss_feeds;
      DELETE FROM ttrss_feed_categories; DELETE FROM ttrss_sessions;
      DELETE FROM ttrss_user_prefs WHERE pref_name = 'ENABLE_API_ACCESS';
      INSERT INTO ttrss_user_prefs (owner_uid, pref_name, value, profile)
        VALUES (1, 'ENABLE_API_ACCESS', 'true', NULL);
      """)
    server = try ServerProcess(
      program: URL(fileURLWithPath: Self.php), arguments: ["-S", "127.0.0.1:0", "-t", www],
      environment: ["PATH": "/usr/bin:/bin"], directory: URL(fileURLWithPath: www),
      announcement: "Development Server (http://127.0.0.1:")
  }

  /// A category; its id.
  public func category(_ title: String) throws -> Int {
    try Int(
      Self.sql(
        "INSERT INTO ttrss_feed_categories (owner_uid, title) VALUES (1, '\(title)') RETURNING id;"
      ).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
  }

  /// A subscription, in `category` when given; its id.
  public func feed(_ title: String, url: String, category: Int? = nil) throws -> Int {
    try Int(
      Self.sql(
        "INSERT INTO ttrss_feeds (owner_uid, title, feed_url, cat_id) VALUES (1, '\(title)', "
          + "'\(url)', \(category.map(String.init) ?? "NULL")) RETURNING id;"
      ).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
  }

  /// An article of `feed`, as the updater stores one (an entry and the user's row of it); the
  /// article's id (its `ref_id`, the id the API gives).
  public func article(feed: Int, title: String, link: String, content: String) throws -> Int {
    try Int(
      Self.sql(
        """
        WITH entry AS (INSERT INTO ttrss_entries (title, guid, link, updated, content, content_hash,
          date_entered, date_updated, author)
          VALUES ('\(title)', '\(link)', '\(link)', NOW(), '\(content)', 'h-\(link)', NOW(), NOW(),
          'Ann') RETURNING id)
        INSERT INTO ttrss_user_entries (ref_id, uuid, feed_id, owner_uid, unread, marked, tag_cache,
          label_cache) SELECT id, '', \(feed), 1, true, false, '', '' FROM entry RETURNING ref_id;
        """
      ).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
  }

  /// A file of `article` (a podcast's episode), as the updater stores an enclosure.
  public func enclosure(_ article: Int, url: String, type: String) throws {
    try Self.sql(
      "INSERT INTO ttrss_enclosures (content_url, content_type, title, duration, post_id, width, "
        + "height) VALUES ('\(url)', '\(type)', '', '60', \(article), 0, 0);")
  }

  /// An article's read and starred state as the database holds it.
  public func state(_ article: Int) throws -> (unread: Bool, marked: Bool)? {
    let row = try Self.sql(
      "SELECT unread, marked FROM ttrss_user_entries WHERE ref_id = \(article);"
    ).trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|")
    guard row.count == 2 else { return nil }
    return (row[0] == "t", row[1] == "t")
  }

  /// Sets an article's state, as another device would.
  public func set(_ article: Int, unread: Bool? = nil, marked: Bool? = nil) throws {
    var changes: [String] = []
    if let unread { changes.append("unread = \(unread)") }
    if let marked { changes.append("marked = \(marked)") }
    _ = try Self.sql(
      "UPDATE ttrss_user_entries SET \(changes.joined(separator: ", ")) WHERE ref_id = \(article);")
  }

  /// The titles of the user's feeds.
  public func feeds() throws -> [String] {
    try Self.sql("SELECT feed_url FROM ttrss_feeds WHERE owner_uid = 1 ORDER BY id;")
      .split(separator: "\n").map(String.init)
  }

  /// Runs `statements` with psql (the test's own way in, apart from the code under test).
  @discardableResult
  static func sql(_ statements: String) throws -> String {
    let process = try Spawned(
      URL(fileURLWithPath: psql),
      arguments: [
        "-At", "-q", "-v", "ON_ERROR_STOP=1", environment["NEWS_TEST_TTRSS_DSN"] ?? "", "-c",
        statements,
      ], output: .pipe, errors: .pipe)
    let (termination, output, errors) = process.collectBlocking()
    guard termination == ChildProcess.Termination(waitStatus: 0) else {
      throw TinyTinyRSSError.sql(String(decoding: output + errors, as: UTF8.self))
    }
    return String(decoding: output, as: UTF8.self)
  }
}

/// What went wrong with the database of the real Tiny Tiny RSS.
public enum TinyTinyRSSError: Error {
  case sql(String)
}
