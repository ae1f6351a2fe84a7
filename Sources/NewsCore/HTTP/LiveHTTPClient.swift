import Foundation

/// The client the program uses for real requests.
public enum LiveHTTPClient {
  /// ``CurlHTTPClient`` on Linux (where `URLSession` spins while it waits), ``URLSessionHTTPClient``
  /// elsewhere or when libcurl cannot be loaded.
  ///
  /// - Parameter environment: where proxies are read (the program's own environment).
  public static func make(
    maximumBodySize: Int = 10 << 20,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> any HTTPClient {
    #if os(Linux)
      if let client = CurlHTTPClient(maximumBodySize: maximumBodySize, environment: environment) {
        return client
      }
    #endif
    return URLSessionHTTPClient(maximumBodySize: maximumBodySize)
  }
}
