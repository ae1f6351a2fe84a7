import Foundation

/// The reader's accounts on their servers: added, listed, tested and removed here, synced by
/// ``sync(_:)``. Accounts and passwords live in the encrypted store (`accounts`), never in
/// `config.json`; each account's feeds are sources named `<account>/<feed>` beside the local ones.
public struct AccountService: Sendable {
  let articles: ArticleStore
  let transport: HTTPTransport
  let deadline: Deadline
  let now: @Sendable () -> Date

  /// Creates the service over the article store (where accounts, their state and their items
  /// are kept), sending through `transport`, each account within `deadline`.
  public init(
    articles: ArticleStore, transport: HTTPTransport, deadline: Deadline,
    now: @escaping @Sendable () -> Date
  ) {
    // The server's own marks are applied to the store directly: never queued to be sent back.
    self.articles = articles
    self.transport = transport
    self.deadline = deadline
    self.now = now
  }

  var store: EncryptedStore { articles.store }
  var outbox: AccountOutbox { AccountOutbox(store: store) }

  /// Whether `name` may name an account: 1 to 32 lower-case ASCII letters, digits or `-`.
  public static func isValidName(_ name: String) -> Bool {
    name.utf8.count <= 32 && SourceName.isValid(name)
  }

  /// Every account, in the order they were added.
  public func accounts() throws -> [Account] {
    try secrets().map(\.account)
  }

  /// The account named `name`, or ``AccountError/unknown(_:)``.
  public func account(_ name: String) throws -> Account {
    guard let found = try accounts().first(where: { $0.name == name }) else {
      throw AccountError.unknown(name)
    }
    return found
  }

  /// What `news` knows of each account: its feeds (with their source names) and last sync.
  public func states() throws -> [(account: Account, state: AccountState)] {
    try accounts().map { account in
      (
        account,
        try store.read(AccountState.self, name: StoreLayout.accountState(account.name))
          ?? AccountState()
      )
    }
  }

  /// Logs in to a new account and keeps it with its password and its feeds (sources named as a
  /// sync names them); returns how many feeds it has. Nothing is kept when the server refuses or
  /// cannot be reached.
  ///
  /// - Throws: ``AccountError/exists(_:)``, ``AccountError/invalidName(_:)``, or what logging in
  ///   threw (``AccountError/refused(account:)``: exit 77).
  public func add(_ account: Account, password: String, reserved: Set<String>) async throws -> Int {
    guard Self.isValidName(account.name), !reserved.contains(account.name) else {
      throw AccountError.invalidName(account.name)
    }
    guard !password.isEmpty else { throw AccountError.noPassword("the password is empty") }
    guard !Account.carriesUserInfo(account.url) else {
      throw AccountError.unsupported(
        account: account.name, detail: "the API's URL must not hold a user name or password")
    }
    let existing = try secrets().map(\.account)
    if existing.contains(where: { $0.name == account.name }) {
      throw AccountError.exists(account.name)
    }
    if let same = existing.first(where: {
      $0.kind == account.kind && $0.user == account.user
        && $0.url.comparableAddress == account.url.comparableAddress
    }) {
      throw AccountError.sameServer(existing: same.name)
    }
    let feeds: [AccountFeed]
    do {
      feeds = try await subscriptions(account, password: password)
    } catch AccountError.status(_, let code, _) where [404, 405, 501].contains(code) {
      // The first request found nothing of the API there: said as such, not as an outage.
      throw AccountError.noAPI(
        account: account.name, kind: account.kind, url: account.url.absoluteString, code: code)
    }
    try store.update(StoreLayout.accounts, initial: [AccountSecret]()) { secrets in
      guard !secrets.contains(where: { $0.account.name == account.name }) else { return }
      secrets.append(AccountSecret(account: account, password: password))
    }
    // Its feeds are sources from now on (`sources`, `feed`, browse's rows), never fetched until
    // the first sync, which keeps their names.
    var state = AccountState()
    state.feeds = feeds
    state.assignNames(account: account.name, previous: [])
    try store.write(state, name: StoreLayout.accountState(account.name))
    return feeds.count
  }

  /// Logs in to account `name`, counts its feeds, and sends one mark round trip that changes
  /// nothing: an item read on the server marked unread, then read again, each checked in the
  /// server's unread ids. `roundTrip` is the item's id, `nil` when the server has no read item.
  public func test(_ name: String) async throws -> (feeds: Int, roundTrip: String?) {
    let secret = try secret(name)
    let client = secret.account.client(password: secret.password, transport: transport)
    return try await run(name) {
      try await client.login()
      let feeds = try await client.feeds().count
      guard let item = try await client.readItem() else { return (feeds, nil) }
      for (change, unread) in [(AccountMark.Change.unread, true), (.read, false)] {
        try await client.send([AccountMark(item: item, change: change)]) { _ in }
        guard try await client.unreadIDs().contains(item) == unread else {
          throw AccountError.wrongShape(
            account: name,
            detail: "item \(item) marked \(change.rawValue) is not \(change.rawValue) on the server"
          )
        }
      }
      return (feeds, item)
    }
  }

  /// Logs in to `account` and reads its feeds.
  private func subscriptions(_ account: Account, password: String) async throws -> [AccountFeed] {
    let client = account.client(password: password, transport: transport)
    return try await run(account.name) {
      try await client.login()
      return try await client.feeds()
    }
  }

  /// Removes account `name`, its password, its state, its queued marks and its sources' stored
  /// items (bookmarks and read marks stay). Returns the names of the sources it had.
  @discardableResult
  public func remove(_ name: String) throws -> [String] {
    _ = try secret(name)
    // Its sources are named `<name>/…`: found in the store even when its state file is damaged.
    let state = try? store.read(AccountState.self, name: StoreLayout.accountState(name))
    let stored = try articles.providers().filter { $0.hasPrefix(name + "/") }
    let sources = Array(Set((state?.feeds.map(\.source) ?? []) + stored)).sorted()
    try store.update(StoreLayout.accounts, initial: [AccountSecret]()) { secrets in
      secrets.removeAll { $0.account.name == name }
    }
    try articles.forget(providers: Set(sources))
    try store.transaction { files in
      for file in [
        StoreLayout.accountState(name), StoreLayout.accountItems(name),
        StoreLayout.accountOutbox(name),
      ] {
        try files.remove(file)
      }
    }
    return sources
  }

  /// Subscribes account `name` to each feed of `feeds` on its server, filed under its folder
  /// (every API but Fever's, which cannot change subscriptions), in one login; `done` is called
  /// after each, with the source of a feed the account had at its last sync (the server is
  /// not asked for that one). Their items come with the next sync; the account's feeds are read
  /// again at once, so that the new ones are sources now. Returns the new sources' names (none
  /// when the feeds could not be read again: they come with the next sync).
  @discardableResult
  public func subscribe(
    _ name: String, feeds: [(url: URL, folder: String?)],
    done: (_ url: URL, _ already: String?) -> Void = { _, _ in }
  ) async throws -> [String] {
    let secret = try secret(name)
    let client = secret.account.client(password: secret.password, transport: transport)
    let state =
      try store.read(AccountState.self, name: StoreLayout.accountState(name)) ?? AccountState()
    let held = Dictionary(
      state.feeds.compactMap { feed in
        feed.url.flatMap { URL.feed($0) }.map { ($0.comparableAddress, feed.source) }
      }, uniquingKeysWith: { first, _ in first })
    var subscribed = false
    for feed in feeds {
      if let source = held[feed.url.comparableAddress] {
        done(feed.url, source)
        continue
      }
      try await run(name) {
        try await client.subscribe(feed.url.absoluteString, folder: feed.folder)
      }
      done(feed.url, nil)
      subscribed = true
    }
    guard subscribed else { return [] }
    // Best effort: the subscriptions are made; a failure here only delays their names.
    do {
      let current = try await run(name) { try await client.feeds() }
      var added: [String] = []
      try store.update(StoreLayout.accountState(name), initial: AccountState()) { state in
        let before = Set(state.feeds.map(\.id))
        let previous = state.feeds
        let awaiting = Set(previous.filter { $0.awaitsSync == true }.map(\.id))
        state.feeds = current
        state.assignNames(account: name, previous: previous)
        // The new ones (and those still waiting) have no items here until the next sync.
        for index in state.feeds.indices
        where !before.contains(state.feeds[index].id) || awaiting.contains(state.feeds[index].id) {
          state.feeds[index].awaitsSync = true
        }
        added = state.feeds.filter { !before.contains($0.id) }.map(\.source)
      }
      return added
    } catch {
      return []
    }
  }

  /// Unsubscribes from the account feed that is the source `source` (`home/hacker-news`) on its
  /// server, and forgets the feed and its stored items here.
  public func unsubscribe(source: String) async throws {
    guard
      let (account, state) = try states().first(where: { _, state in
        state.feeds.contains { $0.source == source }
      }), let feed = state.feeds.first(where: { $0.source == source })
    else { throw AccountError.unknownSource(source) }
    let secret = try secret(account.name)
    let client = account.client(password: secret.password, transport: transport)
    try await run(account.name) { try await client.unsubscribe(feed) }
    try store.update(StoreLayout.accountState(account.name), initial: AccountState()) { state in
      state.feeds.removeAll { $0.source == source }
    }
    try articles.forget(providers: [source])
  }

  /// The bookmarked articles of account `name` whose items are all gone from its server
  /// (deleted there, or their feed unsubscribed): kept here, with their read state.
  public func goneBookmarks(_ name: String) throws -> Int {
    guard let known = try store.read(AccountItems.self, name: StoreLayout.accountItems(name)),
      let gone = known.gone, !gone.isEmpty
    else { return 0 }
    let behind = known.items(of: try articles.bookmarks().map(\.id))
    // Gone only when every item behind it is: one still on the server (the same story under a
    // new id) keeps it there.
    return behind.values.filter { !$0.isEmpty && $0.allSatisfy(gone.contains) }.count
  }

  /// The marks of `name` still to be sent to its server.
  public func pending(_ name: String) throws -> [AccountMark] {
    try outbox.pending(name)
  }

  func secrets() throws -> [AccountSecret] {
    try store.read([AccountSecret].self, name: StoreLayout.accounts) ?? []
  }

  func secret(_ name: String) throws -> AccountSecret {
    guard let found = try secrets().first(where: { $0.account.name == name }) else {
      throw AccountError.unknown(name)
    }
    return found
  }

  /// `body` within the deadline; a deadline passing is the account's failure, named.
  func run<T: Sendable>(_ account: String, _ body: @escaping @Sendable () async throws -> T)
    async throws -> T
  {
    do {
      return try await deadline.run(body)
    } catch let error as DeadlineError {
      throw AccountError.unreachable(account: account, reason: error.message)
    }
  }
}
