import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends one HTTP request and returns the response, whatever its status.
///
/// The one seam between the program and the network: ``URLSessionHTTPClient`` is the real one,
/// tests may provide another. Retries, limits and timing are layered on top by ``HTTPTransport``.
public protocol HTTPClient: Sendable {
  /// Sends `request`; throws only when no HTTP response was received.
  func send(_ request: OutgoingRequest) async throws -> HTTPResponse

  /// Sends `request` and hands the body to `body` as it arrives, without a cap of its own (the
  /// stream counts what it takes) and without asking for a compressed body; the request's
  /// `timeout` is the longest it may go without a byte. Redirects are followed as
  /// ``send(_:)`` follows them; only the final response reaches `body`.
  ///
  /// - Returns: the final response.
  func stream(_ request: OutgoingRequest, into body: BodyStream) async throws -> HTTPResponse

  /// Whether ``send(_:)`` ends at the request's `timeout` to the millisecond, with
  /// `URLError(.timedOut)`: then no timer of the program's own needs to race it.
  var timesOutPrecisely: Bool { get }
}

extension HTTPClient {
  /// Not precisely: URLSession rounds a timeout to whole seconds on Linux; fakes have none.
  public var timesOutPrecisely: Bool { false }

  /// The whole body in one chunk: for clients that cannot stream (test fakes).
  public func stream(_ request: OutgoingRequest, into body: BodyStream) async throws -> HTTPResponse
  {
    var response = try await send(request)
    let data = response.body
    response.body = Data()
    try body.begin(response)
    try data.withUnsafeBytes { try body.receive($0) }
    return response
  }
}
