import Synchronization

/// Counts the HTTP attempts made through a transport, for reports such as `news sync --json`.
public final class AttemptCounter: Sendable {
  private let count = Mutex(0)

  /// Creates a counter at zero.
  public init() {}

  /// The attempts counted so far.
  public var value: Int { count.withLock { $0 } }

  /// `transport`, counting each of its attempts here.
  public func counting(_ transport: HTTPTransport) -> HTTPTransport {
    transport.observed { [self] _ in count.withLock { $0 += 1 } }
  }
}
