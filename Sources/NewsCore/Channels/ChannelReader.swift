import FeedParsing
import Foundation

/// Answers a reader's channels: each one's contents, read state and counts, and the home
/// screen's rows, so that a reader (`news browse`) only runs its event loop. Over the one store
/// and one transport of a run.
public struct ChannelReader: Sendable {
  /// The channels, in the order the home screen lists them.
  public let channels: [Channel]
  /// The feed sources a tag's list gathers from: every enabled one, hidden ones too (a hidden
  /// source has no row of its own, but is in its tags' lists).
  let tagged: [FeedSource]
  /// The enabled hidden sources (newsboat's `!`) that are fetched from their sites: no row of
  /// their own, but their items are in their tags' lists and the saved searches, so a reload of
  /// every list fetches them too (``reloadHidden()``), as newsboat's reload does.
  public let hidden: [FeedSource]
  let lists: Result<ListService, any Error>
  let feed: Result<FeedService, any Error>
  let query: TopHeadlinesQuery
  let unreadOnly: Bool
  /// Every list newest first (undated last), `NEWS_BROWSE_ORDER=newest`, the default; else each
  /// as its source lists it (All unread and tags newest first whatever).
  let newestFirst: Bool
  /// Syncs one account (its marks sent, its new items brought), holding the sync lock: what a
  /// reload of an account's feed asks, since such a feed is never fetched from its site.
  let syncAccount: @Sendable (String) async -> AccountReloads.Outcome
  let accountReloads = AccountReloads()

  /// A channel's items before read state is applied.
  struct Raw {
    var heading: ChannelHeading
    var freshness: ChannelStatus
    var articles: [Article]
    /// The items this answer stored first (a feed source's reload): what a newItem hook runs
    /// for.
    var newItems: [FeedItem] = []
    /// The account whose sync this answer made or shared.
    var syncedAccount: String?
  }

  /// A reader of `channels` over `services`' store and transport; with `unreadOnly`, lists
  /// show only unread items (counts still count every one).
  public init(
    services: NewsServices, channels: [Channel], query: TopHeadlinesQuery, unreadOnly: Bool
  ) {
    self.channels = channels
    tagged = services.feedSources().filter { $0.enabled && !$0.tags.isEmpty }
    hidden = FeedRegistry.hiddenFetched(services.feedSources())
    lists = Result { try services.lists() }
    feed = Result { try services.feed() }
    self.query = query
    self.unreadOnly = unreadOnly
    newestFirst = services.configuration.newestFirst
    syncAccount = { name in
      do {
        let report = try await services.sync().run(wait: false, only: [name])
        guard let line = report.sources.first else { throw AccountError.unknown(name) }
        return .success((line, report.finishedAt))
      } catch {
        return .failure(error)
      }
    }
  }

  /// What channel `index` holds: from the store only with `offline` (`nil` when nothing is
  /// stored), else its answer (`refresh` asks even when the cache is fresh). A source that
  /// failed throws its report's error; a gathering channel is always answered from the store.
  public func contents(_ index: Int, refresh: Bool = false, offline: Bool) async throws
    -> ChannelContents?
  {
    guard
      let raw = try await raw(index, refresh: refresh, offline: offline || channels[index].gathers)
    else { return nil }
    var contents = shaped(
      raw, allUnread: { if case .allUnread = channels[index] { true } else { false } }())
    if case .feed(let source) = channels[index] { contents.showsFullText = source.fullText }
    contents.newItems = raw.newItems
    contents.syncedAccount = raw.syncedAccount
    return contents
  }

  /// Fetches every source of ``hidden`` now, as a reload of every list asks: the items this
  /// stored first (what a newItem hook runs for), and a line for each source that failed (its
  /// stored items, if any, standing in).
  public func reloadHidden() async -> (newItems: [FeedItem], failures: [String]) {
    guard !hidden.isEmpty else { return ([], []) }
    let service: FeedService
    switch feed {
    case .success(let feed): service = feed
    case .failure(let error): return ([], [Self.describe(error)])
    }
    let reports = await service.run(
      hidden, FeedRun.Options(freshness: .init(refresh: true, offline: false))
    ).reports
    return (
      reports.flatMap(\.newItemList),
      reports.filter { $0.status == .failed || $0.status == .stale }.map {
        $0.error ?? "source \($0.name) failed"
      }
    )
  }

  /// The read state, counts and shown items of `raw`; with `marks`, which have a full text or
  /// audio and video too (a list shows them; a home row's counts need neither).
  func shaped(_ raw: Raw, allUnread: Bool = false, marks: Bool = true) -> ChannelContents {
    var state: ReadingState
    switch lists {
    case .success(let lists): state = lists.readingState(of: raw.articles, unreadOnly: allUnread)
    case .failure(let error):
      state = ReadingState(articles: raw.articles, read: [], bookmarked: [])
      state.warnings = ["read state unavailable: " + Self.describe(error)]
    }
    var articles = state.articles
    if allUnread || newestFirst {
      // Newest first (undated last): across the lists for All unread, not list by list.
      articles = articles.enumerated().sorted { left, right in
        let (a, b) = (left.element.publishedAt, right.element.publishedAt)
        if a != b { return (a ?? .distantPast) > (b ?? .distantPast) }
        return left.offset < right.offset
      }.map(\.element)
    }
    let unread = articles.filter { !state.read.contains($0.id) }
    var contents = ChannelContents(
      heading: raw.heading, freshness: raw.freshness,
      articles: unreadOnly ? unread : articles, read: state.read, bookmarked: state.bookmarked,
      unread: unread.count, total: articles.count, warnings: state.warnings)
    if marks, case .success(let lists) = lists {
      do {
        contents.withFullText = try lists.fullTexts(among: contents.articles.map(\.id))
        contents.media = try lists.media(among: contents.articles.map(\.id))
        if !contents.media.isEmpty {
          contents.downloaded = try lists.downloaded(among: Array(contents.media.keys))
        }
      } catch {
        contents.warnings.append("full texts unavailable: " + Self.describe(error))
      }
    }
    return contents
  }

  /// Channel `index`'s heading, freshness and items; `nil` when there is nothing (offline:
  /// nothing stored; a source never fetched).
  func raw(_ index: Int, refresh: Bool, offline: Bool) async throws -> Raw? {
    try await raw(of: channels[index], refresh: refresh, offline: offline)
  }

  /// `channel`'s heading, freshness and items, as ``raw(_:refresh:offline:)`` gives them.
  func raw(of channel: Channel, refresh: Bool, offline: Bool) async throws -> Raw? {
    switch channel {
    case .provider(let provider):
      let result: ListResult
      do {
        result = try await lists.get().headlines(
          from: provider, query: query, offline: offline, limit: nil)
      } catch is OfflineError {
        return nil
      }
      return Raw(
        heading: .provider(provider.heading(for: query)),
        freshness: .list(result.freshness, fetchedAt: result.list.fetchedAt),
        articles: result.list.articles)
    case .feed(var source):
      // An account's feed is brought by its account's sync: a reload syncs the account (once
      // for all its rows reloaded together), then answers from the store. A feed of an account
      // never synced is synced when opened, as a source never fetched is fetched; offline, it
      // has nothing.
      var accountItems: [FeedItem] = []
      var syncedAccount: String?
      if let account = source.account {
        source.syncedAt = await accountReloads.finishedAt(account) ?? source.syncedAt
        if !offline, refresh || source.syncedAt == nil {
          let (report, finishedAt) = try await accountReloads.sync(account, with: syncAccount)
            .get()
          guard report.status != .failed else {
            throw ChannelError.failed(report.error ?? "account \(account) failed")
          }
          source.syncedAt = finishedAt
          syncedAccount = account
          accountItems = report.newItems.filter { $0.feed == source.name }
        } else if source.syncedAt == nil {
          return nil
        }
      }
      // A reload (r, R) asks now, a source failing run after run too, as `feed --refresh`.
      var service = try feed.get()
      service.backsOffFailing = !refresh
      let report = await service.run(
        [source], FeedRun.Options(freshness: .init(refresh: refresh, offline: offline))
      ).reports.first
      guard let report, report.status != .failed else {
        if report?.neverFetched == true || report == nil { return nil }
        throw ChannelError.failed(report?.error ?? "source \(source.name) failed")
      }
      return Raw(
        heading: .source(source.name),
        freshness: source.account == nil
          ? .feed(report.status, fetchedAt: report.fetchedAt) : .synced(report.fetchedAt),
        articles: report.items.map(\.article).uniquedByID(),
        newItems: source.account == nil ? report.newItemList : accountItems,
        syncedAccount: syncedAccount)
    case .bookmarks:
      return Raw(
        heading: .bookmarks, freshness: .stored,
        articles: try lists.get().bookmarks(limit: nil).list.articles)
    case .allUnread:
      let gathered = try await gather { !$0.gathers }
      return Raw(heading: .allUnread, freshness: .stored, articles: gathered)
    case .tag(let tag):
      var gathered: [Article] = []
      for source in tagged where source.tags.contains(tag) {
        gathered += try await raw(of: .feed(source), refresh: false, offline: true)?.articles ?? []
      }
      return Raw(heading: .tag(tag), freshness: .stored, articles: gathered.uniquedByID())
    }
  }

  /// What the store holds of every channel `including` picks, once each.
  private func gather(_ including: (Channel) -> Bool) async throws -> [Article] {
    var gathered: [Article] = []
    for index in channels.indices where including(channels[index]) {
      gathered += try await raw(index, refresh: false, offline: true)?.articles ?? []
    }
    return gathered.uniquedByID()
  }

  static func describe(_ error: any Error) -> String {
    (error as? any NewsError)?.message ?? String(describing: error)
  }
}

/// A channel could not be answered.
public enum ChannelError: NewsError, Equatable {
  /// The source's fetch failed, as its report says.
  case failed(String)

  public var message: String {
    switch self {
    case .failed(let reason): reason
    }
  }

  public var exitCode: ExitCode { .unavailable }
}
