/// A feature's files in the store, as the store's repair asks of them: which names are its own,
/// and what losing a damaged one costs, in words for the user. The store knows no feature: each
/// declares its own (``StoreFiles/accounts``, ``StoreFiles/fullTexts``, ``StoreFiles/downloads``,
/// ``StoreFiles/feedRecords``), and `doctor --repair` is handed them (``StoreRepair``).
public struct StoreFiles: Sendable {
  /// The feature, for messages.
  public var owner: String
  /// Whether the file `name` is one of the feature's.
  public var owns: @Sendable (_ name: String) -> Bool
  /// What removing the damaged file `name` costs.
  public var loss: @Sendable (_ name: String) -> String

  /// Declares a feature's files.
  public init(
    owner: String, owns: @escaping @Sendable (String) -> Bool,
    loss: @escaping @Sendable (String) -> String
  ) {
    self.owner = owner
    self.owns = owns
    self.loss = loss
  }
}
