/// A warning for the user with the advice it carries, as NewsCore hands it to the command line.
public struct Notice: Sendable, Hashable {
  /// What happened, in one line.
  public var text: String
  /// What to do about it, when something can be done.
  public var advice: Advice?

  /// A warning saying `text`, with `advice`.
  public init(_ text: String, advice: Advice? = nil) {
    self.text = text
    self.advice = advice
  }
}
