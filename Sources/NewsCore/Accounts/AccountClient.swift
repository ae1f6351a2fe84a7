import Foundation

/// What a sync asks of an account's server, whatever its protocol: one implementation a kind
/// (``GoogleReaderClient``, ``FeverClient``, ``MinifluxClient``, ``NextcloudClient``,
/// ``TinyTinyRSSClient``, ``FeedbinClient``). The outbox, the redirect rules, gone items and
/// reporting are ``AccountService``'s, written once for all of them.
protocol AccountClient: Sendable {
  /// The account it speaks for.
  var account: Account { get }
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
  /// The ids unread and saved on the server now, given what the last sync knew (`known`) and the
  /// items this one brought: asked of the server (``unreadIDs()``, ``savedIDs()``), or, for an
  /// API that tells what changed rather than what is, `known` moved by the items' own state.
  func states(known: AccountItems, items: [AccountItem]) async throws -> (
    unread: Set<String>, saved: Set<String>
  )
  /// Subscribes to the feed at `url` on the server, filed under `folder` when given.
  func subscribe(_ url: String, folder: String?) async throws
  /// Unsubscribes from `feed`.
  func unsubscribe(_ feed: AccountFeed) async throws
  /// The id of an item read on the server (for `accounts test`'s round trip), `nil` when none is.
  func readItem() async throws -> String?
}

extension AccountClient {
  func states(known: AccountItems, items: [AccountItem]) async throws -> (
    unread: Set<String>, saved: Set<String>
  ) {
    (try await unreadIDs(), try await savedIDs())
  }

  func subscribe(_ url: String, folder: String?) async throws {
    throw cannotSubscribe
  }

  func unsubscribe(_ feed: AccountFeed) async throws {
    throw cannotSubscribe
  }

  /// What an API that cannot change subscriptions (Fever) says when asked to.
  private var cannotSubscribe: AccountError {
    .unsupported(
      account: account.name,
      detail: "the \(account.kind.title) API cannot change subscriptions: change them on the "
        + "server itself")
  }

  /// Every unread id the server lists, without asking: `known`'s, moved by the state `items`
  /// came in (an item read elsewhere comes again, its state changed).
  func movedUnread(_ known: AccountItems, by items: [AccountItem]) -> Set<String> {
    var unread = known.unread ?? []
    for item in items {
      if item.isRead { unread.remove(item.id) } else { unread.insert(item.id) }
    }
    return unread
  }
}

extension Account {
  /// The client of this account's protocol, sending through `transport`.
  func client(password: String, transport: HTTPTransport) -> any AccountClient {
    switch kind {
    case .fever: return FeverClient(account: self, password: password, transport: transport)
    case .greader:
      return GoogleReaderClient(account: self, password: password, transport: transport)
    case .miniflux:
      return MinifluxClient(account: self, password: password, transport: transport)
    case .nextcloud:
      return NextcloudClient(account: self, password: password, transport: transport)
    case .ttrss:
      return TinyTinyRSSClient(account: self, password: password, transport: transport)
    case .feedbin:
      return FeedbinClient(account: self, password: password, transport: transport)
    }
  }
}

extension Account.Kind {
  /// The API's name in messages: `Google Reader`, `Fever`, `Miniflux`, …
  public var title: String {
    switch self {
    case .greader: "Google Reader"
    case .fever: "Fever"
    case .miniflux: "Miniflux"
    case .nextcloud: "Nextcloud News"
    case .ttrss: "Tiny Tiny RSS"
    case .feedbin: "Feedbin"
    }
  }

  /// Whether the API marks a whole feed read in one request (Feedbin's marks items only: a feed
  /// read there is its items' marks, 1,000 a request).
  var marksFeedsRead: Bool { self != .feedbin }
}

extension HTTPResponse {
  /// The body as a JSON object, or ``AccountError/wrongShape(account:detail:)``.
  func jsonObject(account: String) throws -> [String: Any] {
    guard let object = try json(account: account) as? [String: Any] else {
      throw AccountError.wrongShape(account: account, detail: "not a JSON object")
    }
    return object
  }

  /// The body as JSON (an object or a list), or ``AccountError/wrongShape(account:detail:)``
  /// saying what came instead (an HTML page: a login page, a proxy's error).
  func json(account: String) throws -> Any {
    guard let value = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
    else {
      let start = body.prefix(512).drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
      let detail =
        start.first == UInt8(ascii: "<")
        ? "an HTML page, not JSON (a login page or a proxy's? check the URL)" : "not JSON"
      throw AccountError.wrongShape(account: account, detail: detail)
    }
    return value
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
