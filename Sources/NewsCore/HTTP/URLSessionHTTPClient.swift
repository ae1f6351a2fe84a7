import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The real network: an ephemeral `URLSession` with no URL cache (the program caches on its own,
/// encrypted) and a cap on the size of a response body.
///
/// Proxies from `https_proxy`, `http_proxy` and `no_proxy` apply as the platform applies them.
public struct URLSessionHTTPClient: HTTPClient {
  private let session: URLSession
  private let maximumBodySize: Int

  /// Creates a client.
  ///
  /// - Parameters:
  ///   - maximumBodySize: larger bodies are refused with ``HTTPError/responseTooLarge(host:limit:)``.
  ///   - protocolClasses: extra `URLProtocol` classes, for tests that intercept requests.
  public init(maximumBodySize: Int = 10 << 20, protocolClasses: [AnyClass] = []) {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.httpCookieStorage = nil
    configuration.httpShouldSetCookies = false
    if !protocolClasses.isEmpty {
      configuration.protocolClasses = protocolClasses + (configuration.protocolClasses ?? [])
    }
    session = URLSession(configuration: configuration)
    self.maximumBodySize = maximumBodySize
  }

  public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
    let (data, response) = try await session.data(for: request)
    guard let http = response as? HTTPURLResponse else {
      throw HTTPError.network(host: request.url?.host ?? "?", reason: "not an HTTP response")
    }
    let declared = http.value(forHTTPHeaderField: "Content-Length").flatMap { Int($0) } ?? 0
    guard data.count <= maximumBodySize, declared <= maximumBodySize else {
      throw HTTPError.responseTooLarge(host: request.url?.host ?? "?", limit: maximumBodySize)
    }
    return (data, http)
  }
}
