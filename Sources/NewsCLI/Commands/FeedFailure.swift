import Foundation
import NewsCore

/// Every source of the feed failed (each was named on its own line before).
struct FeedFailure: NewsError {
  var count: Int

  var message: String {
    count == 1 ? "the source failed" : "every feed source failed (\(count) of \(count))"
  }

  var exitCode: ExitCode { .unavailable }
}
