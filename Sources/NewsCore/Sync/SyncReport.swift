import Foundation

/// What `news sync` did.
public struct SyncReport: Sendable {
  /// When it started.
  public var startedAt: Date
  /// When it finished.
  public var finishedAt: Date
  /// One report per source, in a fixed order.
  public var sources: [SyncSourceReport]
}
