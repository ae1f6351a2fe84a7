/// Names a shell completes from the store as it is when Tab is pressed, not from the script:
/// `news completion --list sources` (or `tags`) prints them.
public enum CompletedNames: String, Sendable, Equatable, CaseIterable {
  /// The feed sources' names (an account's feeds and saved searches too).
  case sources
  /// The sources' tags.
  case tags
  /// The accounts' names.
  case accounts
}
