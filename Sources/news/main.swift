import Foundation
import NewsCLI

// Ctrl-C ends the program at once with the conventional status; the store's writes are atomic, so
// nothing is left half-written.
signal(SIGINT) { _ in _exit(130) }

let code = await NewsCLI.run(Array(CommandLine.arguments.dropFirst()), context: .live())
exit(code.rawValue)
