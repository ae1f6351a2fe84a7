import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The real network: a `URLSession` without a URL cache or cookies (the program caches on its own,
/// encrypted), with a hard cap on the size of a response body and the ``RedirectPolicy``.
///
/// The body is counted as it arrives: a `Content-Length` over the cap is refused before anything is
/// read, and a streamed body is cancelled the moment it passes the cap, so a response never costs
/// more memory than the cap plus a small constant. Proxies from `https_proxy`, `http_proxy` and
/// `no_proxy` apply as the platform applies them.
public final class URLSessionHTTPClient: HTTPClient {
  private let session: URLSession
  private let delegate: SessionDelegate

  /// Creates a client.
  ///
  /// - Parameters:
  ///   - maximumBodySize: larger bodies are refused with ``HTTPError/responseTooLarge(host:limit:)``.
  ///   - protocolClasses: extra `URLProtocol` classes, for tests that intercept requests.
  public init(maximumBodySize: Int = 10 << 20, protocolClasses: [AnyClass] = []) {
    PlatformNetworking.disableSharedCache()
    // `.default` takes the shared URL cache set aside above; `.ephemeral` would create one with a
    // directory under ~/.cache.
    let configuration = URLSessionConfiguration.default
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.httpCookieStorage = nil
    configuration.httpShouldSetCookies = false
    configuration.urlCredentialStorage = nil
    // The transport's limiter decides how many requests run (NEWS_HOST_CONCURRENCY): the
    // session's own default (6 per host) would silently cap it.
    configuration.httpMaximumConnectionsPerHost = 64
    if !protocolClasses.isEmpty {
      configuration.protocolClasses = protocolClasses + (configuration.protocolClasses ?? [])
    }
    delegate = SessionDelegate(maximumBodySize: maximumBodySize)
    session = URLSession(
      configuration: configuration, delegate: delegate, delegateQueue: InlineDelegateQueue())
  }

  deinit { session.invalidateAndCancel() }

  public func send(_ request: OutgoingRequest) async throws -> HTTPResponse {
    let (body, response, permanent) = try await perform(request.urlRequest, stream: nil)
    var answer = HTTPResponse(response, body: body)
    if permanent { answer.permanentURL = response.url }
    return answer
  }

  public func stream(_ request: OutgoingRequest, into body: BodyStream) async throws -> HTTPResponse
  {
    var request = request.urlRequest
    // The bytes as they are: a file resumed by byte ranges must not be re-encoded on the way.
    request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
    let (_, response, permanent) = try await perform(request, stream: body)
    var answer = HTTPResponse(response, body: Data())
    if permanent { answer.permanentURL = response.url }
    return answer
  }

  /// The body, the response, and whether the request was moved for good (redirected, every
  /// redirect a 301 or 308).
  private func perform(_ request: URLRequest, stream: BodyStream?) async throws -> (
    Data, HTTPURLResponse, Bool
  ) {
    let task = session.dataTask(with: request)
    let delegate = self.delegate
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        delegate.register(task, continuation: continuation, stream: stream)
        // Cancelled before this point, the session may already have reported the task finished
        // (before it was registered): the answer is given here instead.
        if Task.isCancelled {
          delegate.abandon(task)
          task.cancel()
          return
        }
        task.resume()
      }
    } onCancel: {
      task.cancel()
    }
  }
}

/// Collects each task's response and body, enforcing the size cap and the redirect policy.
private final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
  private struct Pending {
    var continuation: CheckedContinuation<(Data, HTTPURLResponse, Bool), any Error>
    var response: HTTPURLResponse?
    /// `nil` until redirected; then whether every redirect was permanent (301, 308).
    var permanent: Bool?
    var body = Data()
    var failure: (any Error)?
    /// Where the body goes instead of `body`, uncapped.
    var stream: BodyStream?
  }

  private let maximumBodySize: Int
  private let pending = Mutex<[Int: Pending]>([:])

  init(maximumBodySize: Int) {
    self.maximumBodySize = maximumBodySize
  }

  func register(
    _ task: URLSessionTask,
    continuation: CheckedContinuation<(Data, HTTPURLResponse, Bool), any Error>,
    stream: BodyStream?
  ) {
    pending.withLock {
      $0[task.taskIdentifier] = Pending(continuation: continuation, stream: stream)
    }
  }

  /// Ends a task that was cancelled before it started: its caller gets `CancellationError`.
  func abandon(_ task: URLSessionTask) {
    pending.withLock { $0.removeValue(forKey: task.taskIdentifier) }?.continuation.resume(
      throwing: CancellationError())
  }

  private func fail(_ task: URLSessionTask, _ error: any Error) {
    pending.withLock { all in
      if all[task.taskIdentifier]?.failure == nil { all[task.taskIdentifier]?.failure = error }
    }
  }

  private func tooLarge(_ task: URLSessionTask) -> HTTPError {
    .responseTooLarge(host: task.originalRequest?.url?.host ?? "?", limit: maximumBodySize)
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    if let stream = pending.withLock({ $0[dataTask.taskIdentifier]?.stream }) {
      do {
        if let response = response as? HTTPURLResponse {
          pending.withLock { $0[dataTask.taskIdentifier]?.response = response }
          try stream.begin(HTTPResponse(response, body: Data()))
        }
        completionHandler(.allow)
      } catch {
        fail(dataTask, error)
        completionHandler(.cancel)
      }
      return
    }
    let declared = response.expectedContentLength
    if declared > Int64(maximumBodySize) {
      fail(dataTask, tooLarge(dataTask))
      completionHandler(.cancel)
      return
    }
    pending.withLock { all in
      all[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse
      if declared > 0 { all[dataTask.taskIdentifier]?.body.reserveCapacity(Int(declared)) }
    }
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let id = dataTask.taskIdentifier
    let streaming = pending.withLock { all in all[id].map { ($0.stream, $0.failure == nil) } }
    if let (stream, healthy) = streaming, let stream {
      guard healthy else { return }
      do {
        try data.withUnsafeBytes { try stream.receive($0) }
      } catch {
        fail(dataTask, error)
        DispatchQueue.global().async { dataTask.cancel() }
      }
      return
    }
    let overCap = pending.withLock { all -> Pending? in
      // Appended in place: holding a copy of the entry, even briefly, would make every append
      // copy the whole body.
      guard all[id] != nil, all[id]?.failure == nil else { return nil }
      guard (all[id]?.body.count ?? 0) + data.count > maximumBodySize else {
        all[id]?.body.append(data)
        return nil
      }
      return all.removeValue(forKey: id)
    }
    guard let overCap else { return }
    // The caller gets its answer now, and what still arrives is dropped. `cancel()` waits for the
    // session's work queue, which is running this very callback: it must be called elsewhere.
    overCap.continuation.resume(throwing: tooLarge(dataTask))
    DispatchQueue.global().async { dataTask.cancel() }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
    completionHandler: @escaping (URLRequest?) -> Void
  ) {
    guard let from = task.currentRequest?.url ?? task.originalRequest?.url, let to = request.url
    else {
      completionHandler(nil)
      return
    }
    let carriesCredential = task.originalRequest.map(RedirectPolicy.carriesCredential) ?? true
    if let reason = RedirectPolicy.refusal(from: from, to: to, carriesCredential: carriesCredential)
    {
      fail(
        task,
        HTTPError.redirectRefused(
          from: RedirectPolicy.origin(of: from), to: RedirectPolicy.origin(of: to), reason: reason))
      completionHandler(nil)
      DispatchQueue.global().async { task.cancel() }
      return
    }
    let permanent = [301, 308].contains(response.statusCode)
    pending.withLock { all in
      let sofar = all[task.taskIdentifier]?.permanent ?? true
      all[task.taskIdentifier]?.permanent = sofar && permanent
    }
    var next = request
    next.url = RedirectPolicy.carried(from: from, to: to)
    completionHandler(next)
  }

  /// The program never answers a request for credentials (its key travels in a header): the
  /// answer is handed back as it is, without its body. Foundation on Linux would otherwise wait,
  /// without a proposed credential, until the request timed out.
  func urlSession(
    _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
    completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
  ) {
    if let entry = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) {
      if let response = challenge.failureResponse as? HTTPURLResponse {
        entry.continuation.resume(returning: (Data(), response, false))
      } else {
        entry.continuation.resume(
          throwing: HTTPError.network(
            host: task.originalRequest?.url?.host ?? "?",
            reason: "the server asked for credentials"))
      }
    }
    // The task itself is cancelled elsewhere: cancelling waits for the session's work queue,
    // which is running this call.
    completionHandler(.performDefaultHandling, nil)
    DispatchQueue.global().async { task.cancel() }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    guard let entry = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else {
      return
    }
    if let failure = entry.failure {
      entry.continuation.resume(throwing: failure)
    } else if let error {
      entry.continuation.resume(throwing: error)
    } else if let response = entry.response {
      entry.continuation.resume(returning: (entry.body, response, entry.permanent ?? false))
    } else {
      entry.continuation.resume(
        throwing: HTTPError.network(
          host: task.originalRequest?.url?.host ?? "?", reason: "not an HTTP response"))
    }
  }
}

/// Runs the session's delegate calls at once, on the thread that delivers them.
///
/// Foundation hands each chunk of a body to the delegate queue without waiting; on a fast
/// connection a queue that falls behind holds every chunk not yet looked at, so a huge body could
/// fill memory before the size cap is even checked. Run inline, each chunk is counted (and dropped
/// past the cap) before the next one is read: memory stays at the cap plus a small constant. The
/// delegate's methods are short and never wait for the session.
private final class InlineDelegateQueue: OperationQueue, @unchecked Sendable {
  // @unchecked: no state of its own; `OperationQueue` is thread-safe.
  override func addOperation(_ block: @escaping @Sendable () -> Void) {
    block()
  }
}
