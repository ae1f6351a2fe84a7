import Foundation

/// Articles, listings and bookmarks, kept in the ``EncryptedStore``.
///
/// Files: the article segments and their manifest (see ``ArticleSegments``), `listings` (query → ids, the last 200 queries),
/// `last-listing` (what the last list command showed, for `news show 3`), `bookmarks`, and the read marks
/// (`read-00` … `read-ff` and `read-log`, see ``ReadMarks``).
public struct ArticleStore: Sendable {
  /// The encrypted files underneath.
  public let store: EncryptedStore
  let retention: RetentionPolicy
  let now: @Sendable () -> Date
  private static let maximumListings = 200
  /// Providers in the order that decides which copy of an id several of them hold is the
  /// article (``FeedLinkMerge``): the configuration's order of providers and sources.
  public var providerOrder: [String] = []
  /// How many changes `read-log` holds before they are merged into the marks (tests lower it).
  var readMarksMergeAfter = ReadMarksLog.compactAfter

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
  /// so that no file name tells a query) before the index (`listings`: key → slot and when it was
  /// saved, no ids) is updated, both under one hold of the lock. The index keeps the 200 most
  /// recently saved queries (the oldest is dropped with its file), so writing a listing costs
  /// that listing and an index of a few kilobytes, however many lists were ever made.
  ///
  /// - Returns: with `countingNew`, the articles that were new to the store; else none.
  @discardableResult
  public func save(
    _ page: ArticleList, key: String, makeLast: Bool = true, countingNew: Bool = false
  ) throws -> [Article] {
    let new = try keep(page.articles, provider: page.provider, countingNew: countingNew)
    var full = Listing(
      key: key, provider: page.provider, ids: page.articles.map(\.id),
      totalResults: page.totalResults, fetchedAt: page.fetchedAt)
    full.articles = page.articles
    try store.transaction { files in
      var index =
        try files.read(ListingIndex.self, name: ListingIndex.fileName)
        ?? (listingIndexIsMissing ? try indexRebuilt(in: files) : ListingIndex())
      let slot = index.entries[key]?.slot ?? index.freeSlot()
      try files.write(full, name: ListingIndex.slotName(slot))
      index.entries[key] = ListingIndex.Entry(slot: slot, fetchedAt: page.fetchedAt)
      for dropped in index.dropOldest(keeping: Self.maximumListings) {
        try files.remove(ListingIndex.slotName(dropped))
      }
      try files.write(index, name: ListingIndex.fileName)
    }
    if makeLast { try setLastListing(full) }
    return new
  }

  /// Adds or refreshes `articles` of `provider` (a segment of its own, see ``ArticleSegments``),
  /// then applies the retention policy.
  ///
  /// - Returns: with `countingNew`, those not stored yet (reading every stored id of the
  ///   provider), in their order; else none.
  @discardableResult
  public func keep(_ articles: [Article], provider: String, countingNew: Bool = false) throws
    -> [Article]
  {
    let seenAt = now()
    let newIDs = try store.transaction { files in
      try segments.append(
        articles, provider: provider, seenAt: seenAt, countingNew: countingNew, in: files)
    }
    guard !newIDs.isEmpty else { return [] }
    var seen = Set<String>()
    return articles.filter { newIDs.contains($0.id) && seen.insert($0.id).inserted }
  }

  /// Adds or refreshes the articles of several providers (``keep(_:provider:countingNew:)``
  /// for each) in one commit: a feed refresh keeps what its sources answered together.
  public func keep(_ batch: [(articles: [Article], provider: String)]) throws {
    let seenAt = now()
    _ = try store.transaction { files in
      try segments.append(batch, seenAt: seenAt, countingNew: false, in: files)
    }
  }

  /// Records what a list command showed, so that `news show <n>` finds it. The last listing is
  /// only ever what the last list showed: a damaged one is replaced by this one rather than
  /// failing the list that was just printed (the one file for which "a damaged file is never
  /// replaced" does not hold, as nothing in it is worth keeping), and the answer is a warning
  /// naming it.
  @discardableResult
  public func setLastListing(_ listing: Listing) throws -> String? {
    do {
      // The same list shown again writes nothing (a search's time is when it ran: not kept).
      try store.writeIfChanged(
        listing, name: StoreLayout.lastListing,
        same: { held, new in
          var held = held
          held.fetchedAt = new.fetchedAt
          return held == new
        }, sameBytes: Listing.sameButTime)
      return nil
    } catch let error as StoreError {
      switch error {
      case .undecryptable, .notAStoreFile, .unreadableContent:
        try store.transaction { files in
          try files.remove(StoreLayout.lastListing)
          try files.write(listing, name: StoreLayout.lastListing)
        }
        return "\(store.url(for: StoreLayout.lastListing).path) was damaged and is replaced by "
          + "this list (it only held what the last list showed, to refer to by number)"
      default:
        throw error
      }
    }
  }

  /// The listing stored for `key` with its articles, if any: the index entry, then that one
  /// listing file (whatever retention dropped since).
  public func listing(for key: String) throws -> (listing: Listing, articles: [Article])? {
    if listingIndexIsMissing { _ = try rebuildListingIndex() }
    guard
      let slot = try store.read(ListingIndex.self, name: ListingIndex.fileName)?.entries[key]?
        .slot,
      let full = try store.read(Listing.self, name: ListingIndex.slotName(slot)), full.key == key
    else { return nil }
    if let articles = full.articles { return (full, articles) }
    let articles = try resolve(full.ids, provider: full.provider)
    return articles.isEmpty ? nil : (full, articles)
  }

  /// Writes the listings index again from the listing files that read (after a damaged index
  /// was removed): no listing file is left unreachable. Returns how many were indexed.
  func rebuildListingIndex() throws -> Int {
    try store.transaction { files in try indexRebuilt(in: files).entries.count }
  }

  /// Whether the listings index is gone while listing files remain (deleted by hand, or by a
  /// sync tool): it is rebuilt from them before it is read or written, never started afresh
  /// over them.
  var listingIndexIsMissing: Bool {
    !store.exists(ListingIndex.fileName)
      && store.names().contains { ListingIndex.slot(ofFileNamed: $0) != nil }
  }

  /// The index made from the listing files that read, written (under the caller's lock).
  private func indexRebuilt(in files: EncryptedStore.Transaction) throws -> ListingIndex {
    var index = ListingIndex()
    for name in store.names() {
      guard let slot = ListingIndex.slot(ofFileNamed: name),
        let listing = try? files.read(Listing.self, name: name)
      else { continue }
      if let other = index.entries[listing.key], other.fetchedAt >= listing.fetchedAt {
        continue
      }
      index.entries[listing.key] = ListingIndex.Entry(slot: slot, fetchedAt: listing.fetchedAt)
    }
    for dropped in index.dropOldest(keeping: Self.maximumListings) {
      try files.remove(ListingIndex.slotName(dropped))
    }
    try files.write(index, name: ListingIndex.fileName)
    return index
  }

  /// The last listing a list command showed, with its articles: those it carries, else those of
  /// its ids still stored.
  public func lastListing() throws -> (listing: Listing, articles: [Article])? {
    guard let listing = try store.read(Listing.self, name: StoreLayout.lastListing) else {
      return nil
    }
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

  /// Every stored article with when it was last seen in an answer, and every bookmarked one not
  /// stored (seen: `nil`), without duplicates: what `news serve` lists.
  public func allArticlesSeen() throws -> [(article: Article, seenAt: Date?)] {
    try migrateIfNeeded()
    var byID: [String: (article: Article, seenAt: Date?)] = [:]
    for (_, records) in try segments.records(cutoff: cutoff()) {
      for stored in records { byID[stored.article.id] = (stored.article, stored.seenAt) }
    }
    for bookmark in try bookmarks() where byID[bookmark.id] == nil {
      byID[bookmark.id] = (bookmark, nil)
    }
    return Array(byID.values)
  }

  /// The head of every stored article with when it was last seen in an answer, and of every
  /// bookmarked one not stored (seen: `nil`), without duplicates: ``allArticlesSeen()`` without
  /// building the articles' text, for a list of every article (`news serve`'s).
  /// With `kept`, a segment read before is not read again (``SegmentHeads``).
  public func allArticleHeads(kept: SegmentHeads? = nil) throws -> [(
    head: ArticleHead, seenAt: Date?
  )] {
    try migrateIfNeeded()
    let stored = try segments.heads(cutoff: cutoff(), kept: kept)
    let total = stored.reduce(0) { $0 + $1.records.count }
    // Listed once, each id once (a set of ids, not a dictionary of every head, then listed).
    // An id two sources hold is the last source's, as a later save's record is: read from the
    // last.
    var heads: [(head: ArticleHead, seenAt: Date?)] = []
    heads.reserveCapacity(total)
    var listed = Set<String>()
    listed.reserveCapacity(total)
    for (_, records) in stored.reversed() {
      for record in records.reversed() where listed.insert(record.head.id).inserted {
        heads.append((record.head, record.seenAt))
      }
    }
    for bookmark in try bookmarks() where listed.insert(bookmark.id).inserted {
      heads.append((ArticleHead(bookmark), nil))
    }
    return heads
  }

  /// The articles of `heads` (as ``allArticleHeads()`` gave them), by id: each read where it
  /// was read, else from its provider's segments (compacted since), else from the bookmarks.
  /// One missing was removed since. With `files`, the segment files read where the heads were
  /// read are kept decrypted there for the next call (``SegmentFiles``).
  public func articles(of heads: [ArticleHead], files: SegmentFiles? = nil) throws
    -> [String: Article]
  {
    guard !heads.isEmpty else { return [:] }
    try migrateIfNeeded()
    // Where each was read, while its segment stands; else looked for in its provider's.
    var found = try segments.read(placed: heads, cutoff: cutoff(), files: files)
    let rest = heads.filter { found[$0.id] == nil }
    if !rest.isEmpty {
      let wanted = Dictionary(grouping: rest, by: \.provider).mapValues { Set($0.map(\.id)) }
      found.merge(try segments.find(wanted, cutoff: cutoff())) { placed, _ in placed }
    }
    let ids = Set(heads.map(\.id))
    if found.count < ids.count {
      for bookmark in try bookmarks() where ids.contains(bookmark.id) && found[bookmark.id] == nil {
        found[bookmark.id] = bookmark
      }
    }
    return found
  }

  /// Every stored or bookmarked article holding all of `words` (see ``ArticleSearch``), newest
  /// first. The store's index narrows the search to the articles holding the words; only those
  /// are decrypted and matched.
  ///
  /// With `limit`, at least the newest `limit` matches (all of them when there are fewer), read
  /// newest segments first and stopping once the rest cannot hold a newer one; `complete` says
  /// whether every match was read.
  public func search(_ words: [String], limit: Int? = nil) throws -> (
    articles: [Article], complete: Bool, inFullText: Set<String>
  ) {
    guard var matcher = ArticleSearch.Matcher(words) else { return ([], true, []) }
    return try search(&matcher, limit: limit)
  }

  /// The stored and bookmarked articles, and those whose kept full text, that `matcher`
  /// accepts, newest first; with `limit`, at least the newest `limit`.
  func search(_ matcher: inout some RecordFilter, limit: Int?) throws -> (
    articles: [Article], complete: Bool, inFullText: Set<String>
  ) {
    try migrateIfNeeded()
    var byID: [String: Article]
    var complete = true
    if let limit, limit > 0 {
      (byID, complete) = try segments.newestMatches(&matcher, limit: limit, cutoff: cutoff())
    } else {
      byID = try segments.search(&matcher, cutoff: cutoff())
    }
    for bookmark in try bookmarks() where byID[bookmark.id] == nil {
      if matcher.accepts(bookmark, seenAt: nil) { byID[bookmark.id] = bookmark }
    }
    // The kept full texts: an article matching only there is found too, and said so.
    var inFullText = Set<String>()
    for (id, text) in try allFullTexts() where byID[id] == nil {
      let stored = try article(id: id)
      var reading =
        stored
        ?? Article(
          id: id, provider: SourceName.url, title: text.title ?? text.url, author: text.byline,
          publisher: text.siteName, url: text.url, imageURL: text.imageURL,
          publishedAt: text.publishedAt)
      let shown = reading
      // Its full text stands for its text.
      reading.title = text.title ?? reading.title
      reading.description = text.excerpt
      reading.content = text.plainText
      guard matcher.accepts(reading, seenAt: nil) else { continue }
      byID[id] = shown
      inFullText.insert(id)
    }
    return (ArticleSearch.newestFirst(Array(byID.values)), complete, inFullText)
  }

  /// The stored (or bookmarked) article with id `id`: read through the segments' ids, so only
  /// the one chunk holding it is decoded.
  ///
  /// An id the last list showed is answered with the copy it showed (one link in several
  /// sources is one id: the copy printed with it is the one meant); any other with the copy of
  /// the first provider in ``providerOrder`` holding it.
  public func article(id: String) throws -> Article? {
    if let last = try? store.read(Listing.self, name: StoreLayout.lastListing),
      let shown = last.articles?.first(where: { $0.id == id })
    {
      return shown
    }
    try migrateIfNeeded()
    if let found = try segments.find([id], provider: nil, cutoff: cutoff(), order: providerOrder)[
      id]
    {
      return found
    }
    return try bookmarks().first { $0.id == id }
  }

  /// ``article(id:)`` of each of `ids` at once: the copies the last list showed, then one pass
  /// over the segments for the others (a bookmark kept only as one is not looked for: those
  /// missing are for ``article(id:)``).
  public func articles(ids: [String]) throws -> [String: Article] {
    var found: [String: Article] = [:]
    let wanted = Set(ids)
    if let shown = try store.read(Listing.self, name: StoreLayout.lastListing)?.articles {
      for article in shown where wanted.contains(article.id) && found[article.id] == nil {
        found[article.id] = article
      }
    }
    let rest = wanted.subtracting(found.keys)
    guard !rest.isEmpty else { return found }
    try migrateIfNeeded()
    found.merge(try segments.find(rest, provider: nil, cutoff: cutoff(), order: providerOrder)) {
      shown, _ in shown
    }
    return found
  }

  /// The stored articles among `ids`, by id (any provider's copy), one pass over the segments.
  public func articles(among ids: Set<String>) throws -> [String: Article] {
    try migrateIfNeeded()
    return try segments.find(ids, provider: nil, cutoff: cutoff(), order: providerOrder)
  }

  /// The names of the providers (and sources) that have stored articles.
  public func providers() throws -> [String] {
    try segments.manifest().providers.keys.sorted()
  }

  /// Forgets every stored article of `providers` (an account removed with its data); bookmarks
  /// and read marks stay. Returns how many records were dropped.
  @discardableResult
  public func forget(providers: Set<String>) throws -> Int {
    try migrateIfNeeded()
    return try store.transaction { files in try segments.forget(providers, in: files) }
  }

  /// The stored articles of `provider`.
  public func articles(provider: String) throws -> [Article] {
    try migrateIfNeeded()
    return try segments.records(provider: provider, cutoff: cutoff()).map(\.article)
  }

  /// Bookmarked articles, most recently bookmarked first.
  public func bookmarks() throws -> [Article] {
    let leftOut =
      "the bookmarks are left out (restore the file from a backup, or remove it to start again: "
      + "repair never touches bookmarks)"
    return
      (try store.readSide([Bookmark].self, name: StoreLayout.bookmarks, leftOut: leftOut) ?? [])
      .sorted {
        $0.addedAt > $1.addedAt
      }
      .map(\.article)
  }

  /// Bookmarks `articles`; returns how many were not bookmarked yet.
  @discardableResult
  public func addBookmarks(_ articles: [Article]) throws -> Int {
    var added = 0
    let addedAt = now()
    try store.update(StoreLayout.bookmarks, initial: [Bookmark]()) { bookmarks in
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
    try store.update(StoreLayout.bookmarks, initial: [Bookmark]()) { bookmarks in
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

  private func resolve(_ ids: [String], provider: String?) throws -> [Article] {
    try migrateIfNeeded()
    var byID = try segments.find(
      Set(ids), provider: provider, cutoff: cutoff(), order: providerOrder)
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
