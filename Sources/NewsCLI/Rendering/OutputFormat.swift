import NewsCore

/// How a list command prints: text for people, one JSON document, or JSON Lines for streaming.
enum OutputFormat: Equatable {
  case text
  case json
  case jsonLines

  /// The format asked for; `--json` with `--jsonl` is a usage error.
  init(_ arguments: ParsedArguments) throws(UsageError) {
    switch (arguments[Options.json], arguments[Options.jsonl]) {
    case (true, true):
      throw UsageError(
        command: arguments.command.name, message: "--json and --jsonl cannot be combined")
    case (true, false): self = .json
    case (false, true): self = .jsonLines
    case (false, false): self = .text
    }
  }
}
