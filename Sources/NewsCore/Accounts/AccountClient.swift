import Foundation

/// What a sync asks of an account's server, whatever its protocol: ``FeverClient`` and
/// ``GoogleReaderClient``.
protocol AccountClient: Sendable {
  /// Logs in (checking the password); throws ``AccountError/refused(account:)`` when refused.
  func login() async throws
  /// The subscriptions, with their folders.
  func feeds() async throws -> [AccountFeed]
  /// The items newer than what `state` says was received, oldest first where the server says,
  /// and the state to keep for the next sync (its cursor moved).
  func newItems(after state: AccountState, now: Date) async throws -> (
    items: [AccountItem], state: AccountState
  )
  /// The ids of every unread item.
  func unreadIDs() async throws -> Set<String>
  /// The ids of every saved (starred) item.
  func savedIDs() async throws -> Set<String>
  /// Those of `ids` the server still has (an item deleted there, or of a feed unsubscribed,
  /// is neither unread nor saved: that must not read as "read elsewhere" or "unsaved").
  func existing(_ ids: Set<String>) async throws -> Set<String>
  /// Sends `marks`, calling `accepted` with each batch as soon as the server took it (so that a
  /// later failure never sends it again); throws at the first batch refused.
  func send(_ marks: [AccountMark], accepted: @Sendable ([AccountMark]) throws -> Void)
    async throws
}

extension Account {
  /// The client of this account's protocol, sending through `transport`.
  func client(password: String, transport: HTTPTransport) -> any AccountClient {
    switch kind {
    case .fever: return FeverClient(account: self, password: password, transport: transport)
    case .greader:
      return GoogleReaderClient(account: self, password: password, transport: transport)
    }
  }
}

extension HTTPResponse {
  /// The body as a JSON object, or ``AccountError/wrongShape(account:detail:)``.
  func jsonObject(account: String) throws -> [String: Any] {
    guard
      let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
        as? [String: Any]
    else {
      throw AccountError.wrongShape(account: account, detail: "not a JSON object")
    }
    return object
  }
}

/// Runs a request of an account, turning the transport's failures into ``AccountError``.
func accountRequest(
  _ account: String, _ body: () async throws -> HTTPResponse
) async throws -> HTTPResponse {
  do {
    return try await body()
  } catch let error as HTTPError {
    throw AccountError.unreachable(account: account, reason: error.message)
  }
}
