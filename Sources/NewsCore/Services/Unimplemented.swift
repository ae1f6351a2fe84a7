import Foundation
import Synchronization

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

extension UnimplementedDependency {
  private static let reporter = Mutex<(@Sendable (UnimplementedDependency) -> Void)?>(nil)

  /// Sends every use of an unimplemented dependency that cannot throw (the clock, random bytes)
  /// to `reporter`: a test target records a test failure naming it, and the test goes on with a
  /// placeholder value (the epoch, zero bytes). Without a reporter the process stops: nothing
  /// could be right after it.
  public static func reportUses(to reporter: @escaping @Sendable (UnimplementedDependency) -> Void)
  {
    Self.reporter.withLock { $0 = reporter }
  }

  static func report(_ name: String) {
    let dependency = UnimplementedDependency(name: name)
    guard let reporter = reporter.withLock({ $0 }) else { fatalError("\(dependency)") }
    reporter(dependency)
  }
}

/// An HTTP client for tests that must not make requests: every send throws.
public struct UnimplementedHTTPClient: HTTPClient {
  /// Creates the client.
  public init() {}

  public func send(_ request: OutgoingRequest) async throws -> HTTPResponse {
    throw UnimplementedDependency(name: "httpClient (\(request.url.absoluteString))")
  }
}

extension Timing {
  /// Time that fails loudly when used: reading the date is reported (a test failure naming it),
  /// waiting throws.
  public static var unimplemented: Timing {
    Timing(
      clock: ContinuousClock(),
      now: {
        UnimplementedDependency.report("timing.now")
        return Date(timeIntervalSince1970: 0)
      },
      pause: { _ in throw UnimplementedDependency(name: "timing.pause") },
      limit: { _ in throw UnimplementedDependency(name: "timing.limit") })
  }
}

extension NewsDependencies {
  /// Dependencies that fail loudly when used; a test sets the ones it needs.
  public static var unimplemented: NewsDependencies {
    NewsDependencies(
      httpClient: UnimplementedHTTPClient(), timing: .unimplemented,
      randomBytes: { count in
        UnimplementedDependency.report("randomBytes")
        return [UInt8](repeating: 0, count: count)
      }, timeZone: .gmt)
  }
}
