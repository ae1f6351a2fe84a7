import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A dependency a test did not set was used: the test fails loudly instead of reaching the real
/// network, clock or random source (swift-dependencies' "unimplemented" values).
public struct UnimplementedDependency: Error, CustomStringConvertible {
  /// Which dependency.
  public var name: String

  public var description: String {
    "unimplemented dependency '\(name)': this test must set it"
  }
}

/// An HTTP client for tests that must not make requests: every send throws.
public struct UnimplementedHTTPClient: HTTPClient {
  /// Creates the client.
  public init() {}

  public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
    throw UnimplementedDependency(name: "httpClient (\(request.url?.absoluteString ?? "?"))")
  }
}

extension Timing {
  /// Time that fails loudly when used: reading the date stops the test, waiting throws.
  public static var unimplemented: Timing {
    Timing(
      clock: ContinuousClock(),
      now: { fatalError("\(UnimplementedDependency(name: "timing.now"))") },
      pause: { _ in throw UnimplementedDependency(name: "timing.pause") },
      limit: { _ in throw UnimplementedDependency(name: "timing.limit") })
  }
}

extension NewsDependencies {
  /// Dependencies that fail loudly when used; a test sets the ones it needs.
  public static var unimplemented: NewsDependencies {
    NewsDependencies(
      httpClient: UnimplementedHTTPClient(), timing: .unimplemented,
      randomBytes: { _ in fatalError("\(UnimplementedDependency(name: "randomBytes"))") })
  }
}
