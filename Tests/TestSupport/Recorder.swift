import Synchronization

/// A thread-safe list that test doubles append to and tests read back.
public final class Recorder<Element: Sendable>: Sendable {
  private let storage = Mutex<[Element]>([])

  /// Creates an empty recorder.
  public init() {}

  /// Appends `element`.
  public func record(_ element: Element) { storage.withLock { $0.append(element) } }

  /// Everything recorded so far.
  public var all: [Element] { storage.withLock { $0 } }
}
