import Foundation
import Synchronization

/// The likes-and-comments service: `GET {NEWS_INFO_URL}/likes/<ARTICLEID>` and
/// `GET {NEWS_INFO_URL}/comments/<ARTICLEID>`, no authentication.
public struct InfoClient: Sendable {
  private let baseURL: URL
  private let transport: HTTPTransport

  /// Creates a client for the service at `baseURL`.
  public init(baseURL: URL, transport: HTTPTransport) {
    self.baseURL = baseURL
    self.transport = transport
  }

  /// The article's likes and comments, asked for concurrently. Each may fail on its own; both
  /// together get `deadline` (retries included), after which what has not come is unavailable.
  public func counts(articleID: String, deadline: Deadline) async -> (
    likes: Result<Int, InfoError>, comments: Result<Int, InfoError>
  ) {
    // Each count is kept as it comes: one may be in when the deadline ends the other.
    let results = Counts()
    _ = try? await firstOf(
      {
        await withTaskGroup(of: Void.self) { group in
          for kind in ["likes", "comments"] {
            group.addTask {
              let result = await count(kind, articleID: articleID)
              // Cut off by the deadline, it says so (below), not that it was cancelled.
              guard !Task.isCancelled else { return }
              results.value.withLock { $0[kind] = result }
            }
          }
        }
      }, orAfter: deadline.limit, sleep: deadline.sleep)
    func result(_ kind: String) -> Result<Int, InfoError> {
      results.value.withLock { $0[kind] }
        ?? .failure(.unreachable(kind: kind, reason: deadline.message))
    }
    return (result("likes"), result("comments"))
  }

  /// One count: `kind` is `likes` or `comments`.
  public func count(_ kind: String, articleID: String) async -> Result<Int, InfoError> {
    let url = URLBuilder.url(baseURL, path: "/\(kind)/\(ArticleID.pathSegment(articleID))")
    do {
      let response = try await transport.get(url)
      guard response.status == 200 else {
        return .failure(.status(kind: kind, code: response.status))
      }
      guard let value = Self.decode(response.body, key: kind) else {
        return .failure(.unparseable(kind: kind))
      }
      return .success(value)
    } catch let error as HTTPError {
      return .failure(.unreachable(kind: kind, reason: error.message))
    } catch {
      return .failure(.unreachable(kind: kind, reason: String(describing: error)))
    }
  }

  /// Accepts `{"likes": 12}` (the form public clients of the real service decode), `{"count": 12}`
  /// and a bare `12`. Negative or fractional counts are refused.
  static func decode(_ body: Data, key: String) -> Int? {
    let decoder = JSONDecoder()
    decoder.userInfo[CountBody.keyName] = key
    let value =
      (try? decoder.decode(Double.self, from: body))
      ?? (try? decoder.decode(CountBody.self, from: body))?.value
    guard let value, value >= 0, value == value.rounded(), value < 1e15 else { return nil }
    return Int(value)
  }
}

/// `{"<kind>": n}` or `{"count": n}`.
private struct CountBody: Decodable {
  static let keyName = CodingUserInfoKey(rawValue: "countKey")!
  var value: Double?

  struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Key.self)
    let name = decoder.userInfo[Self.keyName] as? String ?? "count"
    value =
      try container.decodeIfPresent(Double.self, forKey: Key(stringValue: name))
      ?? container.decodeIfPresent(Double.self, forKey: Key(stringValue: "count"))
  }
}

/// The counts that have come in so far, shared by the tasks asking for them.
private final class Counts: Sendable {
  let value = Mutex<[String: Result<Int, InfoError>]>([:])
}
