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
  func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}
