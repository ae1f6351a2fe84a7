import FeedParsing
import NewsCore

/// The usage errors several commands share, each worded in one place.
extension UsageError {
  /// `unknown source 'x'; the sources are a, b, c; did you mean 'c'?`
  static func unknownSource(_ name: String, among names: [String], command: String) -> UsageError {
    UsageError(
      command: command,
      message: "unknown source '\(name)'; " + SourceName.listing(names, near: name),
      hint: EditDistance.closest(to: name, in: names).map { "did you mean '\($0)'?" })
  }

  /// A `--tag` no source is filed under: `no source is tagged 'x'; the tags are tech, world`.
  static func checkTag(_ tag: String?, among sources: [FeedSource], command: String)
    throws(UsageError)
  {
    guard let tag else { return }
    let tags = Set(sources.flatMap(\.tags)).sorted()
    guard !tags.contains(tag) else { return }
    throw UsageError(
      command: command,
      message: "no source is tagged '\(tag)'; "
        + (tags.isEmpty ? "no source has tags" : "the tags are \(tags.joined(separator: ", "))"),
      hint: EditDistance.closest(to: tag, in: tags).map { "did you mean '\($0)'?" })
  }

  /// `--offline` with `--refresh`, which contradict each other.
  static func checkFreshness(_ arguments: ParsedArguments, command: String) throws(UsageError) {
    if arguments[Options.offline], arguments[Options.refresh] {
      throw UsageError(command: command, message: "--offline and --refresh contradict each other")
    }
  }
}
