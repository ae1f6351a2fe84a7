/// The client the program uses for real requests.
public enum LiveHTTPClient {
  /// ``CurlHTTPClient`` on Linux (where `URLSession` spins while it waits), ``URLSessionHTTPClient``
  /// elsewhere or when libcurl cannot be loaded.
  public static func make(maximumBodySize: Int = 10 << 20) -> any HTTPClient {
    #if os(Linux)
      if let client = CurlHTTPClient(maximumBodySize: maximumBodySize) { return client }
    #endif
    return URLSessionHTTPClient(maximumBodySize: maximumBodySize)
  }
}
