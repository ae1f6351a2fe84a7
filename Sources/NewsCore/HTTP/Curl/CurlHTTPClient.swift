import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The network on Linux: libcurl, driven by one thread that sleeps until a socket is ready.
///
/// Foundation's `URLSession` on Linux drives the same libcurl, but leaves a dispatch source armed
/// for writing once a request is sent (swift-corelibs-foundation's `_MultiHandle` never removes
/// it), so the process spins a core for as long as a server takes to answer: 4 s of waiting cost
/// 4 s of CPU. This client waits in `curl_multi_poll` instead (see ``CurlLoop``).
///
/// It behaves as ``URLSessionHTTPClient`` does: no cache, no cookies, proxies from the
/// environment, a cap on the decoded body (checked as it inflates, so a compressed bomb costs at
/// most the cap), redirects followed by the ``RedirectPolicy`` (at most 16), and the same errors.
public final class CurlHTTPClient: HTTPClient {
  private let loop: CurlLoop
  private let maximumBodySize: Int
  private let proxies: ProxySettings

  /// Whether libcurl could be loaded on this machine.
  public static var isAvailable: Bool { CurlLoop.shared != nil }

  /// A client, or `nil` when libcurl cannot be loaded.
  ///
  /// - Parameter maximumBodySize: larger bodies are refused with
  ///   ``HTTPError/responseTooLarge(host:limit:)``.
  /// - Parameter environment: where the proxy variables are read (``ProxySettings``).
  public init?(
    maximumBodySize: Int = 10 << 20,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    guard let loop = CurlLoop.shared else { return nil }
    self.loop = loop
    self.maximumBodySize = maximumBodySize
    self.proxies = ProxySettings(environment: environment)
  }

  /// The most redirects one request follows, as Foundation's.
  static let maximumRedirects = 16

  /// The statuses of a redirect (followed when they carry a `Location`).
  static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]
  /// The statuses of a redirect for good.
  static let permanentStatuses: Set<Int> = [301, 308]

  /// libcurl ends a transfer at its `CURLOPT_TIMEOUT_MS`, on the loop's own timer; a request
  /// that is redirected has that long for all its transfers.
  public var timesOutPrecisely: Bool { true }

  public func send(_ request: OutgoingRequest) async throws -> HTTPResponse {
    try await perform(request, stream: nil)
  }

  public func stream(_ request: OutgoingRequest, into body: BodyStream) async throws -> HTTPResponse
  {
    try await perform(request, stream: body)
  }

  /// Sends `request`, following redirects; the body in memory, or handed to `stream`.
  private func perform(_ request: OutgoingRequest, stream: BodyStream?) async throws -> HTTPResponse
  {
    var request = request
    var redirects = 0
    // Whether every redirect so far was permanent (301, 308).
    var permanent = true
    let carriesCredential = RedirectPolicy.carriesCredential(request)
    // A whole request has its timeout, redirects and all (a stream's is the longest wait for a
    // byte, each transfer's own).
    var remaining = request.timeout
    while true {
      let from = request.url
      let answer = try await CurlTransfer(
        request, maximumBodySize: maximumBodySize, proxy: proxies.proxy(for: from), stream: stream
      ).run(on: loop)
      if stream == nil {
        remaining -= answer.seconds
        request.timeout = remaining
      }
      let location = answer.headers.last { $0.name.lowercased() == "location" }?.value
      guard Self.redirectStatuses.contains(answer.status), let location,
        let to = URL(string: location, relativeTo: from)?.absoluteURL
      else {
        var response = Self.response(answer, url: from)
        if redirects > 0, permanent { response.permanentURL = from }
        return response
      }
      if let reason = RedirectPolicy.refusal(
        from: from, to: to, carriesCredential: carriesCredential)
      {
        throw HTTPError.redirectRefused(
          from: RedirectPolicy.origin(of: from), to: RedirectPolicy.origin(of: to), reason: reason)
      }
      redirects += 1
      permanent = permanent && Self.permanentStatuses.contains(answer.status)
      guard redirects <= Self.maximumRedirects else { throw URLError(.httpTooManyRedirects) }
      guard remaining > 0 else { throw URLError(.timedOut) }
      request.url = RedirectPolicy.carried(from: from, to: to)
      // As browsers do: a 303, or a 301/302 after a POST, is followed with a GET.
      if answer.status == 303 || (answer.status < 303 && request.method == "POST") {
        request.method = "GET"
        request.body = nil
      }
    }
  }

  /// The answer as the program sees it, built here rather than as Foundation's
  /// `HTTPURLResponse` (a twentieth of a refresh where every source answers 304): header names
  /// in lower case, a repeated header joined as Foundation joins it.
  static func response(_ answer: CurlTransfer.Answer, url: URL) -> HTTPResponse {
    var headers: [String: String] = [:]
    headers.reserveCapacity(answer.headers.count)
    for (name, value) in answer.headers {
      let key = name.lowercased()
      headers[key] = headers[key].map { "\($0), \(value)" } ?? value
    }
    return HTTPResponse(status: answer.status, headers: headers, body: answer.body, url: url)
  }
}
