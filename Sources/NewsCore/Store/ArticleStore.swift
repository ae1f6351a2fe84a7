import Foundation

/// Articles, listings and bookmarks, kept in the ``EncryptedStore``.
///
/// Files: the article segments and their manifest (see ``ArticleSegments``), `listings` (query → ids, the last 200 queries),
/// `last-listing` (what the last list command showed, for `news show 3`), `bookmarks` and `read`
/// (see ``ReadMarks``).
public struct ArticleStore: Sendable {
  /// The encrypted files underneath.
  public let store: EncryptedStore
  private let retention: RetentionPolicy
  private let now: @Sendable () -> Date
  private static let maximumListings = 200

  /// Creates an article store.
  public init(
    store: EncryptedStore, retention: RetentionPolicy = RetentionPolicy(),
    now: @escaping @Sendable () -> Date
  ) {
    self.store = store
    self.retention = retention
    self.now = now
  }

  /// Keeps the articles of `page`, records it as the listing for `key` and as the last listing.
  ///
  /// The listing is written with its articles to a file of its own (`listing-<slot>`, a number,
  /// so that no file name tells a query) before the index (`listings`: key → ids and slot) is
  /// updated, both under one hold of the lock; a slot file whose key is not the index's (a crash
  /// in between) is ignored and the ids are resolved instead.
  ///
  /// - Returns: with `countingNew`, how many of the articles were new to the store; else 0.
  @discardableResult
  public func save(
    _ page: ArticleList, key: String, makeLast: Bool = true, countingNew: Bool = false
  ) throws -> Int {
    let newCount = try keep(page.articles, provider: page.provider, countingNew: countingNew)
    var listing = Listing(
      key: key, provider: page.provider, ids: page.articles.map(\.id),
      totalResults: page.totalResults, fetchedAt: page.fetchedAt)
    var full = listing
    full.articles = page.articles
    try store.transaction { files in
      var index = try files.read([String: Listing].self, name: "listings") ?? [:]
      let slot = index[key]?.slot ?? Self.freeSlot(in: index)
      listing.slot = slot
      try files.write(full, name: Self.slotName(slot))
      index[key] = listing
      if index.count > Self.maximumListings {
        let oldest = index.values.sorted { $0.fetchedAt < $1.fetchedAt }
          .prefix(index.count - Self.maximumListings)
        for old in oldest {
          index[old.key] = nil
          if let slot = old.slot { try files.remove(Self.slotName(slot)) }
        }
      }
      try files.write(index, name: "listings")
    }
    if makeLast { try setLastListing(full) }
    return newCount
  }

  /// The smallest slot no listing of `index` uses.
  private static func freeSlot(in index: [String: Listing]) -> Int {
    let used = Set(index.values.compactMap(\.slot))
    return (0...).first { !used.contains($0) }!
  }

  private static func slotName(_ slot: Int) -> String { "listing-\(slot)" }

  /// Adds or refreshes `articles` of `provider` (a segment of its own, see ``ArticleSegments``),
  /// then applies the retention policy.
  ///
  /// - Returns: with `countingNew`, how many of them were not stored yet (reading every stored
  ///   id of the provider); else 0.
  @discardableResult
  public func keep(_ articles: [Article], provider: String, countingNew: Bool = false) throws
    -> Int
  {
    let seenAt = now()
    return try store.transaction { files in
      try segments.append(
        articles, provider: provider, seenAt: seenAt, countingNew: countingNew, in: files)
    }
  }

  /// Records what a list command showed, so that `news show <n>` finds it. The last listing is
  /// only ever what the last list showed: a damaged one is replaced by this one rather than
  /// failing the list that was just printed (the one file for which "a damaged file is never
  /// replaced" does not hold, as nothing in it is worth keeping).
  public func setLastListing(_ listing: Listing) throws {
    do {
      try store.write(listing, name: "last-listing")
    } catch let error as StoreError {
      switch error {
      case .undecryptable, .notAStoreFile, .unreadableContent:
        try store.transaction { files in
          try files.remove("last-listing")
          try files.write(listing, name: "last-listing")
        }
      default:
        throw error
      }
    }
  }

  /// The listing stored for `key` with its articles, if any: from its own file when it has one
  /// (whatever retention dropped since), else those of its ids still stored.
  public func listing(for key: String) throws -> (listing: Listing, articles: [Article])? {
    guard let listing = try store.read([String: Listing].self, name: "listings")?[key] else {
      return nil
    }
    if let slot = listing.slot,
      let full = try store.read(Listing.self, name: Self.slotName(slot)), full.key == key,
      let articles = full.articles
    {
      return (listing, articles)
    }
    let articles = try resolve(listing.ids, provider: listing.provider)
    return articles.isEmpty ? nil : (listing, articles)
  }

  /// The last listing a list command showed, with its articles: those it carries, else those of
  /// its ids still stored.
  public func lastListing() throws -> (listing: Listing, articles: [Article])? {
    guard let listing = try store.read(Listing.self, name: "last-listing") else { return nil }
    if let articles = listing.articles { return (listing, articles) }
    // A provider's own list is read from its file only; search and bookmark lists mix providers.
    try migrateIfNeeded()
    let single = try segments.manifest().providers[listing.provider] != nil
    return (listing, try resolve(listing.ids, provider: single ? listing.provider : nil))
  }

  /// Every stored article of every provider, and every bookmarked one, without duplicates.
  public func allArticles() throws -> [Article] {
    try migrateIfNeeded()
    var byID: [String: Article] = [:]
    for (_, records) in try segments.records(cutoff: cutoff()) {
      for stored in records { byID[stored.article.id] = stored.article }
    }
    for bookmark in try bookmarks() where byID[bookmark.id] == nil {
      byID[bookmark.id] = bookmark
    }
    return Array(byID.values)
  }

  /// Every stored or bookmarked article holding all of `words` (see ``ArticleSearch``), newest
  /// first. The store's index narrows the search to the articles holding the words; only those
  /// are decrypted and matched.
  public func search(_ words: [String]) throws -> [Article] {
    guard var matcher = ArticleSearch.Matcher(words) else { return [] }
    try migrateIfNeeded()
    var byID = try segments.search(&matcher, cutoff: cutoff())
    for bookmark in try bookmarks() where byID[bookmark.id] == nil {
      if matcher.matches([bookmark.title, bookmark.description, bookmark.content]) {
        byID[bookmark.id] = bookmark
      }
    }
    return ArticleSearch.newestFirst(Array(byID.values))
  }

  /// The stored (or bookmarked) article with id `id`: read through the segments' ids, so only
  /// the one chunk holding it is decoded.
  public func article(id: String) throws -> Article? {
    try migrateIfNeeded()
    if let found = try segments.find([id], provider: nil, cutoff: cutoff())[id] { return found }
    return try bookmarks().first { $0.id == id }
  }

  /// The stored articles of `provider`.
  public func articles(provider: String) throws -> [Article] {
    try migrateIfNeeded()
    return try segments.records(provider: provider, cutoff: cutoff()).map(\.article)
  }

  /// Bookmarked articles, most recently bookmarked first.
  public func bookmarks() throws -> [Article] {
    (try store.read([Bookmark].self, name: "bookmarks") ?? []).sorted { $0.addedAt > $1.addedAt }
      .map(\.article)
  }

  /// Bookmarks `articles`; returns how many were not bookmarked yet.
  @discardableResult
  public func addBookmarks(_ articles: [Article]) throws -> Int {
    var added = 0
    let addedAt = now()
    try store.update("bookmarks", initial: [Bookmark]()) { bookmarks in
      for article in articles {
        if let index = bookmarks.firstIndex(where: { $0.article.id == article.id }) {
          bookmarks[index].article = article
        } else {
          bookmarks.append(Bookmark(article: article, addedAt: addedAt))
          added += 1
        }
      }
    }
    return added
  }

  /// Removes the bookmarks with these ids; returns the ids that were not bookmarked.
  @discardableResult
  public func removeBookmarks(_ ids: [String]) throws -> [String] {
    var missing: [String] = []
    try store.update("bookmarks", initial: [Bookmark]()) { bookmarks in
      for id in ids {
        if let index = bookmarks.firstIndex(where: { $0.article.id == id }) {
          bookmarks.remove(at: index)
        } else {
          missing.append(id)
        }
      }
    }
    return missing
  }

  /// The ids of the articles marked read.
  public func readIDs() throws -> Set<String> {
    Set((try store.read(ReadMarks.self, name: "read")?.marks ?? [:]).keys)
  }

  /// Marks `ids` read; returns how many were not read yet.
  @discardableResult
  public func markRead(_ ids: [String]) throws -> Int {
    let stamp = now().timeIntervalSince1970
    var added = 0
    try updateReadMarks { marks in
      for id in ids {
        if marks.marks.updateValue(stamp, forKey: id) == nil { added += 1 }
      }
    }
    return added
  }

  /// Marks `ids` unread again; returns how many were read.
  @discardableResult
  public func markUnread(_ ids: [String]) throws -> Int {
    var removed = 0
    try updateReadMarks { marks in
      for id in ids where marks.marks.removeValue(forKey: id) != nil { removed += 1 }
    }
    return removed
  }

  /// Stamps again the marks of read articles that are still listed (so they outlive their
  /// articles for as long as a source lists them); writes only when a mark is a day old.
  public func noteListed(_ ids: [String], read: Set<String>) throws {
    let stamp = now().timeIntervalSince1970
    let listedRead = ids.filter(read.contains)
    guard !listedRead.isEmpty,
      let marks = try store.read(ReadMarks.self, name: "read"),
      listedRead.contains(where: { stamp - (marks.marks[$0] ?? stamp) > ReadMarks.restampAfter })
    else { return }
    try updateReadMarks { marks in
      for id in listedRead where marks.marks[id] != nil { marks.marks[id] = stamp }
    }
  }

  private func updateReadMarks(_ change: (inout ReadMarks) -> Void) throws {
    let current = now()
    try store.update("read", initial: ReadMarks()) { marks in
      change(&marks)
      marks.prune(now: current, lifetime: ReadMarks.lifetime(for: retention))
    }
  }

  private func resolve(_ ids: [String], provider: String?) throws -> [Article] {
    try migrateIfNeeded()
    var byID = try segments.find(Set(ids), provider: provider, cutoff: cutoff())
    for article in try bookmarks() where byID[article.id] == nil { byID[article.id] = article }
    return ids.compactMap { byID[$0] }
  }

  /// The article segments underneath.
  var segments: ArticleSegments { ArticleSegments(store: store, retention: retention) }

  /// Articles last seen before this are dropped (and no longer read).
  private func cutoff() -> Date { now().addingTimeInterval(-retention.maximumAge.seconds) }

  /// Turns a store of an earlier version into segments, once, under the lock.
  private func migrateIfNeeded() throws {
    guard segments.hasLegacyFiles() else { return }
    try store.transaction { files in try segments.migrateLegacyFiles(in: files) }
  }
}
