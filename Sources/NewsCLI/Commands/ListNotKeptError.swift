import Foundation
import NewsCore

/// A list was printed, but the store could not keep it: the command fails after the output.
struct ListNotKeptError: NewsError {
  var underlying: any NewsError

  var message: String { "the list was shown but not kept: \(underlying.sentence)" }
  var exitCode: ExitCode { underlying.exitCode }
}
