import Foundation

/// What became of one source in a sync.
public enum SyncSourceStatus: String, Sendable, Equatable {
  /// Pulled.
  case ok
  /// Asked for and failed.
  case failed
  /// Not asked for: newsapi.org without a key.
  case skipped
}
