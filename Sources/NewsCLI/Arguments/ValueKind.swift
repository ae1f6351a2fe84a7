/// What an option's value may be: the parser checks it, so commands read typed values.
public enum ValueKind: Sendable, Equatable {
  /// No value: the option is a flag.
  case flag
  /// Any text.
  case text
  /// A whole number within the range.
  case integer(ClosedRange<Int>)
  /// Whole seconds within the range, written as `DurationText` reads them (`900`, `30m`, `2h`).
  case duration(ClosedRange<Int>)
  /// One of these words.
  case choice([String])
  /// Comma-separated text.
  case list
  /// Comma-separated words, each one of these.
  case listOf([String])
}
