import FeedParsing
import Foundation

/// The one way through for every list command: fetch, keep the articles, record the list as the
/// last one (so `news show 3` finds its third item), and let the stored list stand in when the
/// network or the server fails. Commands ask, then render; nothing here prints.
public struct ListService: Sendable {
  let store: ArticleStore
  let context: ProviderContext
  /// The killfile's rules (``IgnoreRule``), from `config.json`.
  let ignoreRules: [IgnoreRule]
  /// Where read and saved marks of an account's items are queued for its server before they
  /// are made here (``AccountOutbox``); `nil` without accounts.
  public var outbox: AccountOutbox?
  /// Each source's tags (lower-case), for queries' `tag:`: asked only by a query with one.
  public var sourceTags: @Sendable () -> [String: Set<String>] = { [:] }

  /// Creates the service over an opened store.
  public init(store: ArticleStore, context: ProviderContext, ignoreRules: [IgnoreRule] = []) {
    self.store = store
    self.context = context
    self.ignoreRules = ignoreRules
  }

  /// The list of `provider` for `query`: fetched, or the stored one with `offline` (never the
  /// network then), or the stored one standing in for an outage.
  ///
  /// - Parameter unreadOnly: leave out the articles marked read (before `limit` applies).
  public func headlines(
    from provider: any Provider, query: TopHeadlinesQuery, offline: Bool, limit: Int?,
    unreadOnly: Bool = false
  ) async throws -> ListResult {
    let key = provider.storageKey(for: query)
    let shape = Shape(limit: limit, unreadOnly: unreadOnly)
    if offline {
      guard let result = try stored(key, freshness: .offline, shape: shape) else {
        throw OfflineError.nothingStored
      }
      return result
    }
    return try await fetched(key: key, shape: shape) {
      try await provider.fetch(query, using: context)
    }
  }

  /// newsapi.org's `/v2/everything` for `query`, kept like headlines.
  public func everything(_ query: EverythingQuery, limit: Int?) async throws -> ListResult {
    let client = NewsAPIClient(
      baseURL: context.configuration.newsAPIURL,
      apiKey: try context.configuration.requireNewsAPIKey(), transport: context.transport,
      now: context.now)
    return try await fetched(key: query.storageKey, shape: Shape(limit: limit)) {
      try await client.everything(query)
    }
  }

  /// The stored articles holding every one of `words`, newest first; with `limit`, the search
  /// stops once it has the newest `limit` (``ListResult/isPartial`` then).
  public func search(_ words: [String], limit: Int?, unreadOnly: Bool = false) throws
    -> ListResult
  {
    // With --unread the limit counts unread matches: every match is read then.
    let (articles, complete, inFullText) = try store.search(
      words, limit: unreadOnly ? nil : limit)
    var result = unkeyedSearch(articles, limit: limit, unreadOnly: unreadOnly)
    result.isPartial = !complete
    result.matchedInFullText = inFullText
    return result
  }

  /// Search results as a list: kept as the last list, read marks applied.
  func unkeyedSearch(_ articles: [Article], limit: Int?, unreadOnly: Bool) -> ListResult {
    unkeyed(
      articles, provider: SourceName.search,
      shape: Shape(limit: limit, unreadOnly: unreadOnly, ignoring: false))
  }

  /// The bookmarked articles, most recently bookmarked first.
  public func bookmarks(limit: Int?, unreadOnly: Bool = false) throws -> ListResult {
    unkeyed(
      try store.bookmarks(), provider: SourceName.bookmarks,
      shape: Shape(limit: limit, unreadOnly: unreadOnly, ignoring: false))
  }

  /// What is shown of a list: at most `limit` articles, only unread ones with `unreadOnly`.
  private struct Shape {
    var limit: Int?
    var unreadOnly = false
    /// Whether the killfile applies (not to searches and bookmarks, which were asked for).
    var ignoring = true
  }

  private func fetched(
    key: String, shape: Shape, _ fetch: () async throws -> ArticleList
  ) async throws -> ListResult {
    let list: ArticleList
    do {
      list = try await fetch()
    } catch let error as any NewsError where error.isOutage {
      guard let result = try stored(key, freshness: .stale(error.message), shape: shape) else {
        throw error
      }
      return result
    }
    var result = shaped(list, freshness: .fresh, shape: shape)
    result.warnings = list.warnings + result.warnings
    do {
      try store.save(list, key: key, makeLast: false)
      if let warning = try store.setLastListing(Self.listing(result.list, key: key)) {
        result.warnings.append(warning)
      }
    } catch let error as any NewsError {
      result.notKept = error
    }
    return result
  }

  /// The result showing `list` as `shape` says, with its read marks. Marks that cannot be read
  /// (a damaged `read` file, named) are a warning: the list is shown and kept all the same.
  private func shaped(_ list: ArticleList, freshness: ListFreshness, shape: Shape) -> ListResult {
    var list = list
    var filter = IgnoreFilter(
      shape.ignoring ? ignoreRules : [], facts: ignoreFacts(), timeZone: context.timeZone)
    if !filter.isEmpty { list.articles.removeAll { filter.ignores($0) } }
    var (read, warnings) = readMarksOrWarning(of: list.articles.map(\.id))
    warnings += filter.warnings
    var shown = list
    if shape.unreadOnly { shown.articles.removeAll { read.contains($0.id) } }
    var result = ListResult(
      list: Self.cut(shown, to: shape.limit), freshness: freshness, warnings: warnings)
    result.unreadCount = list.articles.lazy.filter { !read.contains($0.id) }.count
    result.read = read.marked(result.list.articles.map(\.id))
    do {
      result.enclosures = try store.enclosures(among: result.list.articles.map(\.id))
    } catch {
      result.warnings.append(
        "enclosures unavailable: " + ((error as? any NewsError)?.message ?? "\(error)"))
    }
    if let warning = noteListed(result.list.articles.map(\.id), marks: read) {
      result.warnings.append(warning)
    }
    return result
  }

  /// Renews the read marks of the listed articles (``ArticleStore/noteListed(_:marks:)``);
  /// a failure is a warning saying what it costs.
  func noteListed(_ ids: [String], marks: ReadMarks) -> String? {
    do {
      try store.noteListed(ids, marks: marks)
      return nil
    } catch {
      return "read marks of the listed articles not renewed ("
        + ((error as? any NewsError)?.message ?? "\(error)")
        + "): if this goes on, they expire with the retention policy and read articles show unread"
    }
  }

  /// The read marks, or none and a warning: a list is shown (and kept) all the same. A file of
  /// marks that does not open is told as the store's other damaged files are (once a run).
  func readMarksOrWarning(of ids: [String]) -> (ReadMarks, [String]) {
    do {
      let marks = try store.readMarks(of: ids)
      for path in marks.unreadableFiles { store.store.sayDamaged(ReadMarks.damage(path)) }
      return (marks, [])
    } catch {
      return (
        ReadMarks(),
        ["read marks unavailable: " + ((error as? any NewsError)?.message ?? "\(error)")]
      )
    }
  }

  private func stored(_ key: String, freshness: ListFreshness, shape: Shape) throws -> ListResult? {
    guard let stored = try store.listing(for: key) else { return nil }
    let list = ArticleList(
      provider: stored.listing.provider, totalResults: stored.listing.totalResults,
      articles: stored.articles, fetchedAt: stored.listing.fetchedAt)
    var result = shaped(list, freshness: freshness, shape: shape)
    if case .stale(let reason) = freshness {
      let age = RelativeTime.describe(list.fetchedAt, now: context.now())
      result.warnings.append(
        "\(reason); showing the articles stored \(age == "just now" ? age : "from " + age)")
    }
    record(Self.listing(result.list, key: stored.listing.key), in: &result)
    return result
  }

  /// A list that is not a provider's page (search results, bookmarks).
  private func unkeyed(_ articles: [Article], provider: String, shape: Shape) -> ListResult {
    let list = ArticleList(
      provider: provider, totalResults: articles.count, articles: articles,
      fetchedAt: context.now())
    var result = shaped(list, freshness: .fresh, shape: shape)
    record(Self.listing(result.list, key: provider), in: &result)
    return result
  }

  private func record(_ listing: Listing, in result: inout ListResult) {
    do {
      if let warning = try store.setLastListing(listing) { result.warnings.append(warning) }
    } catch let error as any NewsError {
      result.notKept = error
    } catch {
      result.notKept = StoreError.io(
        path: store.store.directory.path, operation: "record the last list",
        reason: String(describing: error))
    }
  }

  private static func cut(_ list: ArticleList, to limit: Int?) -> ArticleList {
    guard let limit else { return list }
    var cut = list
    cut.articles = Array(list.articles.prefix(limit))
    return cut
  }

  /// The last listing of what is shown, carrying its articles (`news show 3` reads only it).
  private static func listing(_ list: ArticleList, key: String) -> Listing {
    var listing = Listing(
      key: key, provider: list.provider, ids: list.articles.map(\.id),
      totalResults: list.totalResults, fetchedAt: list.fetchedAt)
    if list.articles.count <= Listing.maximumCarried { listing.articles = list.articles }
    return listing
  }
}
