import Foundation

/// What a provider fetches with.
public struct ProviderContext: Sendable {
  /// The configuration (URLs, key).
  public var configuration: Configuration
  /// The transport every request goes through.
  public var transport: HTTPTransport
  /// The current time, for `fetchedAt`.
  public var now: @Sendable () -> Date
  /// The run's time zone (``NewsDependencies/timeZone``), for queries.
  public var timeZone: TimeZone

  /// Creates a context.
  public init(
    configuration: Configuration, transport: HTTPTransport, now: @escaping @Sendable () -> Date,
    timeZone: TimeZone
  ) {
    self.configuration = configuration
    self.transport = transport
    self.now = now
    self.timeZone = timeZone
  }
}
