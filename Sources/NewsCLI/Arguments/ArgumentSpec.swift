/// A positional argument.
public struct ArgumentSpec: Sendable, Equatable {
  /// Its placeholder in usage (`id`).
  public var name: String
  /// One line of help.
  public var help: String
  /// Whether it must be given.
  public var required: Bool
  /// Whether it may be repeated.
  public var repeating: Bool
  /// The values it accepts, when there is a fixed set.
  public var choices: [String]
  /// What it may be: the parser checks it (`.integer` for a rule's number).
  public var kind: ValueKind
  /// The names it is one of, which completions ask for.
  public var completes: CompletedNames?

  /// Creates an argument.
  public init(
    name: String, help: String, required: Bool = true, repeating: Bool = false,
    choices: [String] = [], kind: ValueKind = .text, completes: CompletedNames? = nil
  ) {
    self.completes = completes
    self.name = name
    self.help = help
    self.required = required
    self.repeating = repeating
    self.choices = choices
    self.kind = kind
  }
}
