import FeedParsing
import Foundation

extension AccountService {
  /// Syncs every account (or those of `names`) concurrently: one report line each, named after
  /// the account.
  public func sync(_ names: [String]? = nil) async -> [SyncSourceReport] {
    let accounts: [AccountSecret]
    do {
      accounts = try secrets().filter { names?.contains($0.account.name) ?? true }
    } catch {
      let message = (error as? any NewsError)?.message ?? String(describing: error)
      return [
        SyncSourceReport(
          name: SourceName.accounts, status: .failed, new: 0, total: 0, error: message, attempts: 0)
      ]
    }
    return await withTaskGroup(of: (Int, SyncSourceReport).self) { group in
      for (index, secret) in accounts.enumerated() {
        group.addTask { (index, await sync(secret)) }
      }
      var reports: [(Int, SyncSourceReport)] = []
      for await report in group { reports.append(report) }
      return reports.sorted { $0.0 < $1.0 }.map(\.1)
    }
  }

  /// One account: its queued marks sent first (so that the server's state is the newest), then
  /// its feeds, its new items and every unread and saved id read, the items stored as articles
  /// of their sources, and the server's read and saved state made the state here.
  private func sync(_ secret: AccountSecret) async -> SyncSourceReport {
    let account = secret.account
    var report = SyncSourceReport(
      name: account.name, status: .failed, new: 0, total: 0, error: nil, attempts: 0)
    let counter = AttemptCounter()
    let client = account.client(password: secret.password, transport: counter.counting(transport))
    do {
      let previous =
        try store.read(AccountState.self, name: StoreLayout.accountState(account.name))
        ?? AccountState()
      let queued = try outbox.pending(account.name)
      let known =
        try store.read(AccountItems.self, name: StoreLayout.accountItems(account.name))
        ?? AccountItems()
      let started = now()
      let outbox = self.outbox
      let pulled = try await run(account.name) { [client] in
        try await client.login()
        // Each batch the server took leaves the queue at once: a later step failing (the
        // items, the unread ids) never sends it again, over a newer mark made elsewhere.
        try await client.send(queued) { sent in try outbox.accepted(sent, account: account.name) }
        let feeds = try await client.feeds()
        let (items, state) = try await client.newItems(after: previous, now: started)
        // What the server knows now, the marks just sent included.
        let current =
          try store.read(AccountItems.self, name: StoreLayout.accountItems(account.name)) ?? known
        let (unread, saved) = try await client.states(known: current, items: items)
        // An item no longer unread, or no longer saved, may be gone from the server rather
        // than read or unsaved there: asked, so that a deletion takes nothing of the user's.
        let leaving = known.leaving(unread: unread, saved: saved).subtracting(known.gone ?? [])
        let gone = leaving.isEmpty ? [] : leaving.subtracting(try await client.existing(leaving))
        return (feeds, items, state, unread, saved, gone)
      }
      let (feeds, items, cursor, unread, saved, gone) = pulled
      var state = cursor
      state.feeds = feeds
      state.assignNames(account: account.name, previous: previous.feeds)
      state.lastSyncAt = now()
      let kept = try keep(items, state: state, known: known, account: account.name)
      (report.new, report.total) = (kept.new, kept.total)
      // What came for the first time: what a newItem hook runs for. An account's first sync
      // brings all it held (thousands of items, none of them news), as a new subscription's
      // first answer does: none runs. Nor for a feed this sync lists for the first time
      // (subscribed since the last, here or elsewhere): what it brings is its backlog.
      let synced = Set(previous.feeds.filter { $0.awaitsSync != true }.map(\.id))
      let firstTime = Set(state.feeds.filter { !synced.contains($0.id) }.map(\.source))
      report.newItems =
        previous.lastSyncAt == nil
        ? [] : kept.arrived.filter { !firstTime.contains($0.provider) }.map(FeedItem.init(article:))
      try apply(
        unread: unread, saved: saved, received: Set(items.map(\.id)),
        arrived: Set(items.map(\.id)).subtracting(known.articles.keys),
        heldBefore: Set(known.articles.values), gone: gone, account: account.name)
      try store.write(state, name: StoreLayout.accountState(account.name))
      report.status = .ok
    } catch {
      report.error = (error as? any NewsError)?.message ?? String(describing: error)
    }
    report.attempts = counter.value
    return report
  }

  /// Whether two items of one feed sharing a link are one story: the same title, published
  /// within twelve hours of each other when both say when (a daily show's episodes of one
  /// title are a day apart).
  static func sameStory(_ one: Article, _ other: Article) -> Bool {
    guard one.title == other.title else { return false }
    guard let first = one.publishedAt, let second = other.publishedAt else { return true }
    return abs(first.timeIntervalSince(second)) < 12 * 3_600
  }

  /// Stores `items` as articles of their feeds' sources and records their server ids; returns
  /// how many were new, how many the account holds here now (those of earlier syncs too, as a
  /// feed's total is its items, not the new ones), and the articles of the items `known` did not
  /// hold.
  private func keep(
    _ items: [AccountItem], state: AccountState, known: AccountItems, account: String
  ) throws -> (new: Int, total: Int, arrived: [Article]) {
    let sources = Dictionary(
      state.feeds.map { ($0.id, $0.source) }, uniquingKeysWith: { first, _ in first })
    var byFeed: [String: [Article]] = [:]
    var ids: [String: String] = [:]
    var arrived: [Article] = []
    var enclosures: [String: [Enclosure]] = [:]
    // Article id → the server item that has it. The same link in two feeds is one article
    // (as in local feeds); but items of one feed sharing a link (a feed whose items all link
    // to its home page) are each kept, as a local feed's are. The first keeps the link's id
    // (the server's ids, recorded, keep each item's id from one sync to the next), each other
    // one has an id of its own.
    var owners = Dictionary(
      known.articles.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
    // The stored articles whose ids items of this sync may share, read in one pass over the
    // store (one read an item cost a segment's decryption each: minutes for a server rebuilt).
    let made = items.compactMap { item -> (AccountItem, String, Article)? in
      let source = sources[item.feedID] ?? account + "/other"
      return item.article(source: source).map { (item, source, $0) }
    }
    let shared = Set(
      made.lazy.filter { known.articles[$0.0.id] == nil && owners[$0.2.id] != nil }.map(\.2.id))
    let stored = shared.isEmpty ? [:] : try articles.articles(among: shared)
    // Article id → the article of this sync that has it (else the stored one).
    var arriving: [String: Article] = [:]
    func holder(_ id: String) throws -> Article? {
      if let held = arriving[id] ?? stored[id] { return held }
      return try articles.article(id: id)
    }
    for (item, source, made) in made {
      var article = made
      if let held = known.articles[item.id] {
        article.id = held
      } else if let owner = owners[article.id], owner != item.id,
        let held = try holder(article.id), held.provider == source,
        !Self.sameStory(held, article)
      {
        // Another story of the feed under the same link (a podcast's episodes all linking to
        // its page). The same story under a new server id (its database rebuilt, the feed
        // subscribed anew) stays one article, both ids behind it.
        article.id = item.distinctID(source: source) { owners[$0] != nil }
      }
      owners[article.id] = item.id
      if arriving[article.id] == nil { arriving[article.id] = article }
      byFeed[source, default: []].append(article)
      ids[item.id] = article.id
      if !item.enclosures.isEmpty { enclosures[article.id] = item.enclosures }
      if known.articles[item.id] == nil { arrived.append(article) }
    }
    var new = 0
    for (source, articles) in byFeed.sorted(by: { $0.key < $1.key }) {
      new += try self.articles.keep(articles, provider: source, countingNew: true).count
    }
    // The episodes and files beside the articles, as a feed's are.
    if !enclosures.isEmpty { try articles.keepEnclosures(enclosures) }
    if !ids.isEmpty {
      try store.update(StoreLayout.accountItems(account), initial: AccountItems()) { known in
        known.articles.merge(ids) { _, new in new }
      }
    }
    // Articles, not server ids: two ids may stand behind one article.
    let held = Set(known.articles.values).union(ids.values).count
    return (new, held, arrived)
  }

  /// Makes the server's read and saved state the state here, for the items whose state on the
  /// server changed since the last sync and those that just `arrived`, new here (every item the first
  /// time), but those with a mark queued since (sent next time, it wins then) and those `gone`
  /// from the server (their read state and bookmark stay as they are here). An unchanged
  /// account costs no mark.
  private func apply(
    unread: Set<String>, saved: Set<String>, received: Set<String>, arrived: Set<String>,
    heldBefore: Set<String>, gone: Set<String>, account: String
  ) throws {
    guard let known = try store.read(AccountItems.self, name: StoreLayout.accountItems(account))
    else { return }
    // The items new here, their articles too: their state here is as they were made. An item new
    // on the server whose article was the account's already (the same story under a new id,
    // its server rebuilt) takes the server's state like any other.
    let fresh = arrived.filter { known.articles[$0].map { !heldBefore.contains($0) } ?? true }
    let queued = Set(try outbox.pending(account).map(\.item))
    // An item that came in this sync is on the server, whatever an earlier one said.
    let allGone = (known.gone ?? []).union(gone).subtracting(received)
    func changed(_ now: Set<String>, _ before: Set<String>?) -> Set<String> {
      guard let before else { return Set(known.articles.keys).subtracting(allGone) }
      return now.symmetricDifference(before).union(arrived).subtracting(queued)
        .subtracting(allGone)
    }
    var read: [String] = []
    var unreadHere: [String] = []
    for item in changed(unread, known.unread) {
      guard let article = known.articles[item] else { continue }
      if !unread.contains(item) {
        read.append(article)
      } else if !fresh.contains(item) {
        // Unread on the server again; a new item is unread here already.
        unreadHere.append(article)
      }
    }
    if !read.isEmpty { try articles.markRead(read, counting: false) }
    if !unreadHere.isEmpty { try articles.markUnread(unreadHere, counting: false) }
    let savedChanges = changed(saved, known.saved)
    if !savedChanges.isEmpty {
      let bookmarked = Set(try articles.bookmarks().map(\.id))
      var toBookmark: [String] = []
      var unsaved: [String] = []
      for item in savedChanges {
        guard let id = known.articles[item] else { continue }
        if saved.contains(item), !bookmarked.contains(id) {
          toBookmark.append(id)
        } else if !saved.contains(item), !fresh.contains(item), bookmarked.contains(id) {
          unsaved.append(id)
        }
      }
      if !toBookmark.isEmpty {
        // Read in one pass over the store, not one segment's decryption a bookmark.
        let found = try articles.articles(among: Set(toBookmark))
        try articles.addBookmarks(toBookmark.compactMap { found[$0] })
      }
      if !unsaved.isEmpty { try articles.removeBookmarks(unsaved) }
    }
    try store.update(StoreLayout.accountItems(account), initial: AccountItems()) { known in
      known.unread = unread
      known.saved = saved
      known.gone = allGone.isEmpty ? nil : allGone
    }
  }
}

extension AccountItem {
  /// The item as an article of `source`: its id derived from its link as any feed item's (so the
  /// same story from a local feed is one item), its HTML made text; `nil` without a title or link.
  func article(source: String) -> Article? {
    let text = html.map { HTMLText.plain($0) }
    let heading = title.isEmpty ? (url ?? "") : title
    guard
      var item = FeedItem(feed: source, title: heading, description: text, imageURL: nil, url: url)
    else { return nil }
    if url == nil { item.id = source + "-" + StableHash.hex(id, length: 10) }
    item.author = author
    item.publishedAt = publishedAt
    if let html, !HTMLText.isPlain(html) {
      item.content = HTMLText.content(html, base: url.flatMap(URL.init(string:)))
    }
    return item.article
  }

  /// An id of `source` for this item that `taken` does not hold: its title, link and server id
  /// hashed (again with a count, in the unlikely case that this is taken too).
  func distinctID(source: String, taken: (String) -> Bool) -> String {
    var attempt = 0
    var candidate: String
    repeat {
      attempt += 1
      candidate = source + "-" + StableHash.hex(title, url ?? "", id, "\(attempt)", length: 8)
    } while taken(candidate)
    return candidate
  }
}
