import Foundation
import NewsCore

/// A sync that did not fully succeed.
enum SyncError: NewsError {
  /// Another sync holds the lock.
  case alreadyRunning
  /// `count` of the `asked` sources failed (what the others pulled is kept).
  case failed(Int, of: Int)

  var message: String {
    switch self {
    case .alreadyRunning:
      return "another news sync is running; skipped (pass --wait to wait for it)"
    case .failed(let count, let asked) where count == asked:
      return "every source failed (\(count) of \(asked))"
    case .failed(let count, let asked):
      return "\(count) of \(asked) sources failed; what the others pulled is kept"
    }
  }

  var exitCode: ExitCode {
    switch self {
    case .alreadyRunning: return .temporaryFailure
    case .failed(let count, let asked): return count == asked ? .unavailable : .temporaryFailure
    }
  }
}
