import FeedParsing
import Foundation

/// The JSON requests of an account's REST API (Miniflux, Nextcloud News, Tiny Tiny RSS,
/// Feedbin): paths under the account's URL, its credential in a header on each, a refusal (401,
/// 403) read as a wrong password and any other failing status as the server's.
struct AccountAPI: Sendable {
  let account: Account
  let transport: HTTPTransport
  /// The headers every request carries (the credential).
  var headers: [String: String]
  /// The path under the account's URL the API answers at (`index.php/apps/news/api/v1-3`);
  /// left out when the URL ends with it already.
  var base: String = ""

  /// The URL of `path` (`v1/entries`), with `query` percent-encoded.
  func url(_ path: String, _ query: [(String, String)] = []) -> URL {
    var url = account.url
    let given = url.path.split(separator: "/").joined(separator: "/")
    if !base.isEmpty, !given.hasSuffix(base) {
      for part in base.split(separator: "/") { url.appendPathComponent(String(part)) }
    }
    for part in path.split(separator: "/") { url.appendPathComponent(String(part)) }
    // An API at a folder's index (Tiny Tiny RSS's `api/`) is asked with its slash.
    if path.isEmpty, !url.absoluteString.hasSuffix("/") {
      url = URL(string: url.absoluteString + "/") ?? url
    }
    guard !query.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    else { return url }
    components.percentEncodedQuery = query.map {
      FormBody.escape($0.0) + "=" + FormBody.escape($0.1)
    }.joined(separator: "&")
    return components.url ?? url
  }

  /// Sends `method` to `path` with `body` as JSON; the response, once its status succeeded (or
  /// is one of `accepting`, which the caller reads).
  @discardableResult
  func send(
    _ method: String, _ path: String, query: [(String, String)] = [], body: Any? = nil,
    accepting: Set<Int> = []
  ) async throws -> HTTPResponse {
    try await send(method, url: url(path, query), body: body, accepting: accepting)
  }

  /// Sends `method` to `url` (a page the server linked to) with `body` as JSON; the response,
  /// once its status succeeded (or is one of `accepting`).
  @discardableResult
  func send(_ method: String, url: URL, body: Any? = nil, accepting: Set<Int> = [])
    async throws -> HTTPResponse
  {
    let data = try body.map { try JSONSerialization.data(withJSONObject: $0, options: []) }
    let response = try await accountRequest(account.name) {
      try await transport.send(method, url, json: data, headers: headers)
    }
    guard response.succeeded || accepting.contains(response.status) else {
      if response.status == 401 || response.status == 403 {
        throw AccountError.refused(account: account.name)
      }
      throw AccountError.status(
        account: account.name, code: response.status, reason: Self.reason(response.body))
    }
    return response
  }

  /// The reason a failing answer's JSON body gives (Miniflux's `error_message`, Nextcloud News's
  /// `message`, an `error`), on one line and cleaned of terminal controls; `nil` for any other
  /// body (a web page).
  static func reason(_ body: Data) -> String? {
    guard body.first == UInt8(ascii: "{"), body.count < 65_536 else { return nil }
    let object: [String: Any]
    do {
      guard let parsed = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
        return nil
      }
      object = parsed
    } catch {
      return nil  // Not JSON: the status alone says it.
    }
    let text = ["error_message", "message", "error"].lazy.compactMap { object[$0] as? String }
      .first
    guard
      let cleaned = text.map({
        TerminalSanitizer.clean($0).trimmingCharacters(in: .whitespaces)
      }), !cleaned.isEmpty
    else {
      return nil
    }
    return cleaned.count > 200 ? String(cleaned.prefix(199)) + "…" : cleaned
  }

  /// `send`'s answer as JSON.
  func json(
    _ path: String, method: String = "GET", query: [(String, String)] = [], body: Any? = nil
  ) async throws -> Any {
    try await send(method, path, query: query, body: body).json(account: account.name)
  }

  /// `send`'s answer as a JSON object.
  func object(
    _ path: String, method: String = "GET", query: [(String, String)] = [], body: Any? = nil
  ) async throws -> [String: Any] {
    guard
      let object = try await json(path, method: method, query: query, body: body)
        as? [String: Any]
    else { throw wrongShape("\(path) did not answer a JSON object") }
    return object
  }

  /// `send`'s answer as a JSON list.
  func list(_ path: String, query: [(String, String)] = []) async throws -> [Any] {
    guard let list = try await json(path, query: query) as? [Any] else {
      throw wrongShape("\(path) did not answer a JSON list")
    }
    return list
  }

  /// The error of an answer that is JSON but not what the API sends.
  func wrongShape(_ detail: String) -> AccountError {
    .wrongShape(account: account.name, detail: detail)
  }

  /// `Basic base64(user:password)`.
  static func basic(_ user: String, _ password: String) -> String {
    "Basic " + Data((user + ":" + password).utf8).base64EncodedString()
  }

  /// `values` in chunks of `size`.
  static func batches<T>(_ values: [T], of size: Int) -> [[T]] {
    stride(from: 0, to: values.count, by: size).map {
      Array(values[$0..<min($0 + size, values.count)])
    }
  }

  /// An ISO 8601 date with or without fractions (`2026-11-27T10:00:00.123456Z`).
  static func date(_ value: Any?) -> Date? {
    guard let text = value as? String else { return nil }
    let plain = ISO8601DateFormatter()
    if let date = plain.date(from: text) { return date }
    let fractional = ISO8601DateFormatter()
    fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return fractional.date(from: text)
  }
}
