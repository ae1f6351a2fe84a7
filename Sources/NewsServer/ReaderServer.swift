import Dispatch
import FeedParsing
import Foundation
import NewsCore
import Serving
import Synchronization

/// `news serve`'s answers: the Google Reader API (`/accounts/ClientLogin`, `/reader/api/0/…`)
/// and the Fever API (`/fever/?api`) over the store, authentication in front of them both.
/// Each request calls NewsCore's services as the command line does: a mark made here is made
/// as `news read` makes it (queued for its account first, then kept).
public final class ReaderServer: Sendable {
  private let services: @Sendable () throws -> NewsServices
  private let cache = LibraryCache()
  let throttle: LoginThrottle

  /// Serves the store of the services `services` gives (asked at each request: a configuration
  /// that changed is read again by the caller). `clock` counts seconds for the login throttle.
  public init(
    services: @escaping @Sendable () throws -> NewsServices,
    clock: @escaping @Sendable () -> Double = ReaderServer.monotonicSeconds
  ) {
    self.services = services
    throttle = LoginThrottle(clock: clock)
  }

  /// The answer to `request` from `peer`.
  public func handle(_ request: HTTPRequest, peer: HTTPServer.Peer) -> Serving.HTTPResponse {
    do {
      let path = request.path
      let isFever = path == "/fever" || path == "/fever/" || path == "/fever/index.php"
      guard isFever || path == "/accounts/ClientLogin" || path.hasPrefix(GoogleReaderAPI.prefix)
      else {
        return HTTPResponse.text("not served: see docs/serve.md\n", status: 404)
      }
      let services = try services()
      let snapshot = try cache.current(services)
      let login = snapshot.login
      if path == "/accounts/ClientLogin" {
        return clientLogin(request, peer: peer, login: login)
      }
      let served = ServedRequest(
        request: request, services: services, library: snapshot.library, marks: snapshot.marks,
        generation: snapshot.generation, cache: cache, fresh: self.services)
      if isFever {
        return try fever(served, peer: peer, login: login)
      }
      guard signedIn(request, login: login) else {
        return HTTPResponse.text("Unauthorized\n", status: 401)
      }
      return try GoogleReaderAPI.answer(
        String(path.dropFirst(GoogleReaderAPI.prefix.count)), served, login: login)
    } catch let error as HTTPError {
      return .error(error)
    } catch {
      let message = (error as? any NewsError)?.message ?? "\(error)"
      return HTTPResponse.text(TerminalSanitizer.clean(message) + "\n", status: 500)
    }
  }

  // MARK: Google Reader's login

  /// `ClientLogin`: `Email` and `Passwd` for the `Auth` token (as text lines, or JSON with
  /// `output=json`). An address that failed too often is answered 429 without a try.
  private func clientLogin(_ request: HTTPRequest, peer: HTTPServer.Peer, login: ServerLogin?)
    -> HTTPResponse
  {
    if let wait = throttle.wait(for: peer.address) { return Self.tooMany(wait) }
    let user = request.parameter("Email") ?? ""
    let password = request.parameter("Passwd") ?? ""
    if let login, !login.accepts(user: user, password: password) {
      throttle.failed(peer.address)
      return HTTPResponse.text("Error=BadAuthentication\n", status: 401)
    }
    throttle.succeeded(peer.address)
    let token = Self.authToken(login)
    if request.parameter("output") == "json" {
      return .json(
        .object([("SID", .string(token)), ("LSID", .string("null")), ("Auth", .string(token))]))
    }
    return .text("SID=\(token)\nLSID=null\nAuth=\(token)\n")
  }

  /// The `Auth` token: the user and the login's signature (anything goes without a login).
  static func authToken(_ login: ServerLogin?) -> String {
    guard let login else { return "news/open" }
    return login.user + "/" + login.token("auth")
  }

  /// Whether `request` carries the `Auth` token (`Authorization: GoogleLogin auth=…`).
  private func signedIn(_ request: HTTPRequest, login: ServerLogin?) -> Bool {
    guard let login else { return true }
    guard let header = request.header("authorization"),
      let range = header.range(of: "auth=", options: .caseInsensitive)
    else { return false }
    let token = String(header[range.upperBound...]).trimmingCharacters(in: .whitespaces)
    guard let slash = token.lastIndex(of: "/") else { return false }
    return login.accepts(token: String(token[token.index(after: slash)...]), for: "auth")
  }

  /// 429 with how long to wait.
  static func tooMany(_ seconds: Int) -> HTTPResponse {
    HTTPResponse(
      status: 429, body: Array("too many failed logins: try again later\n".utf8),
      headers: [("Retry-After", String(seconds))])
  }

  // MARK: Fever

  private func fever(_ served: ServedRequest, peer: HTTPServer.Peer, login: ServerLogin?) throws
    -> HTTPResponse
  {
    let request = served.request
    guard request.parameters.contains(where: { $0.name == "api" }) else {
      return HTTPResponse.text("the Fever API is at /fever/?api\n", status: 404)
    }
    if let wait = throttle.wait(for: peer.address) { return Self.tooMany(wait) }
    if let login {
      guard login.acceptsFever(key: request.parameter("api_key") ?? "") else {
        throttle.failed(peer.address)
        return .json(FeverAPI.refused)
      }
      throttle.succeeded(peer.address)
    }
    return try FeverAPI.answer(served)
  }
}

extension ReaderServer {
  /// Seconds on the system's monotonic clock, for the throttle.
  public static func monotonicSeconds() -> Double {
    let duration = ContinuousClock.now - reference
    return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }

  private static let reference = ContinuousClock.now
}

/// Runs `body` to its end from a thread that may block (a connection's thread, never one of
/// Swift's cooperative pool): subscribing fetches the feed.
func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
  let done = DispatchSemaphore(value: 0)
  let result = ResultBox<T>()
  Task {
    do {
      result.set(.success(try await body()))
    } catch {
      result.set(.failure(error))
    }
    done.signal()
  }
  done.wait()
  return try result.get()
}

/// A result handed from a task to the thread that waits for it.
private final class ResultBox<T: Sendable>: Sendable {
  private let value = Mutex<Result<T, any Error>?>(nil)
  func set(_ result: Result<T, any Error>) { value.withLock { $0 = result } }
  func get() throws -> T {
    guard let result = value.withLock({ $0 }) else { throw CancellationError() }
    return try result.get()
  }
}
