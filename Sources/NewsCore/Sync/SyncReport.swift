import Foundation

/// What `news sync` did.
public struct SyncReport: Sendable {
  /// When it started.
  public var startedAt: Date
  /// When it finished.
  public var finishedAt: Date
  /// One report per source, in a fixed order.
  public var sources: [SyncSourceReport]
  /// The run's own warnings (a record of the feeds' refresh that could not be written), apart
  /// from any source's.
  public var warnings: [String] = []
}
