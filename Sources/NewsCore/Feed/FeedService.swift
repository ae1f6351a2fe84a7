import FeedParsing
import Foundation

/// Fetches every source concurrently, each with its own cache and time to live, and returns only
/// when all have answered.
public struct FeedService: Sendable {
  private let transport: HTTPTransport
  let cache: EncryptedStore
  private let articles: ArticleStore?
  let now: @Sendable () -> Date
  /// Whether a source failing run after run is left alone for a while
  /// (``failureBackoff(_:)``); `feed --refresh` asks every source whatever.
  public var backsOffFailing = true
  /// Each source's tags (lower-case), for a saved search's `tag:`.
  var sourceTags: [String: Set<String>] = [:]
  private let deadline: Deadline
  private let revalidation: RevalidationTimes
  /// Where the sources' items are kept as articles, then their cache entries written, several
  /// sources a commit (one wait a source: a source waiting longer holds its place among those
  /// in flight, and smaller commits rewrite the segment manifest more often).
  private let writer: CommitBatcher<Answer, Written>
  /// Each source's last answer, several sources a file.
  private let feedCache: FeedCache
  /// The most sources one commit keeps and caches: what a commit holds decoded (and its cache
  /// bundle whole until written), whatever waits.
  static let keptPerCommit = 64
  /// How many sources' answers a commit waits for while the run's other requests are under
  /// way, and for how long at most (seconds): a commit has a cost of its own.
  static let gatheredPerCommit = 32
  static let gatherTimeout: TimeInterval = 0.25

  /// A source's answer, to be kept and cached.
  private struct Answer: Sendable {
    var source: String
    var entry: FeedCacheEntry
    var pack: FeedItemPack
  }

  /// How a commit of answers went: why the items were not stored, why the entries were not
  /// cached (`nil`: they were).
  private struct Written: Sendable {
    var notKept: String?
    var notCached: String?
  }
  /// Extracts the full text of the items of sources with `"fullText": true` (after their items
  /// are kept); `nil`: never.
  public var fullText: FullTextService?
  /// How many of a source's items (its first) get their full text fetched in one run: the rest
  /// come with the next runs.
  public static let fullTextPerRun = 20
  /// The run's time zone, for saved searches' queries.
  let timeZone: TimeZone
  /// Runs the commands of `exec:` and `filter:` sources; `nil`: such a source fails, saying so.
  public var commands: SourceCommandRunner?

  /// Creates the service; `cache` is the encrypted store the sources' answers are kept in,
  /// `articles` where their items are kept as articles of their source, and each source gets
  /// `deadline` in all, retries included; a saved search's days are those of `timeZone`.
  public init(
    transport: HTTPTransport, cache: EncryptedStore, articles: ArticleStore?,
    now: @escaping @Sendable () -> Date, timeZone: TimeZone, deadline: Deadline
  ) {
    self.timeZone = timeZone
    self.transport = transport
    self.cache = cache
    self.articles = articles
    self.now = now
    self.deadline = deadline
    revalidation = RevalidationTimes(store: cache)
    let feedCache = FeedCache(store: cache)
    self.feedCache = feedCache
    writer = CommitBatcher(
      maximumBatch: Self.keptPerCommit, gathering: Self.gatheredPerCommit,
      gatherTimeout: Self.gatherTimeout
    ) { batch in
      Self.commit(batch, articles: articles, cache: feedCache)
    }
  }

  /// The source's cache entry (`nil` when there is none, or it was for another URL), or why it
  /// does not open: an unreadable entry is reported, never overwritten. With `items`, its items
  /// too: left packed in the entry's bytes (`pack`) when it is of the current format, else
  /// decoded into the entry.
  func cachedEntry(_ source: FeedSource, items: Bool = true) -> (
    entry: FeedCacheEntry?, pack: FeedItemPack?, error: String?, itemCount: Int?
  ) {
    do {
      var itemCount: Int?
      let found: [UInt8]?
      if items {
        found = try feedCache.entry(of: source.name)
      } else {
        let counted = try feedCache.counted(source.name)
        (found, itemCount) = (counted?.summary, counted?.itemCount)
      }
      guard let bytes = found else { return (nil, nil, nil, nil) }
      var cached: FeedCacheEntry
      var pack: FeedItemPack?
      do {
        if !items {
          cached = try FeedCacheEntry.decodeSummary(bytes)
        } else if let packed = try FeedCacheEntry.decodePacked(bytes) {
          (cached, pack) = packed
        } else {
          cached = try FeedCacheEntry.decode(bytes)
        }
      } catch {
        throw StoreError.unreadableContent(
          path: cache.url(for: StoreLayout.feedIndex).path,
          detail: "the entry of \(source.name): \(error)")
      }
      guard cached.url == source.url.absoluteString else { return (nil, nil, nil, nil) }
      cached.writtenAt = cached.fetchedAt
      if let revalidated = revalidation.time(of: source.name), revalidated > cached.fetchedAt {
        cached.fetchedAt = revalidated
      }
      return (cached, pack, nil, itemCount)
    } catch let error as any NewsError {
      return (nil, nil, error.message, nil)
    } catch {
      return (nil, nil, String(describing: error), nil)
    }
  }

  /// The longest a server's `Retry-After` keeps a source (or its host) waiting.
  static let longestHint: Double = RefreshBounds.longestHint

  /// How long a source is kept between fetches (`NEWS_REFRESH_MIN`, `NEWS_REFRESH_MAX`).
  public var refreshBounds = RefreshBounds()

  /// How long the response says it stays the same: `Cache-Control: max-age`, else `Expires`
  /// against its `Date` (or now); `nil` for `no-store`, `no-cache` or nothing.
  static func responseHint(_ headers: [String: String], now: Date) -> FreshnessHint? {
    let control = headers["cache-control"]?.lowercased() ?? ""
    if control.contains("no-store") || control.contains("no-cache") { return nil }
    if let range = control.range(of: "max-age=") {
      let digits = control[range.upperBound...].prefix { $0.isASCII && $0.isNumber }
      if let seconds = Double(digits) {
        return FreshnessHint(seconds: seconds, kind: .cacheControl)
      }
    }
    guard let expires = headers["expires"].flatMap(Self.httpDate) else { return nil }
    let date = headers["date"].flatMap(Self.httpDate) ?? now
    let seconds = expires.timeIntervalSince(date)
    return seconds > 0 ? FreshnessHint(seconds: seconds, kind: .expires) : nil
  }

  private static func httpDate(_ text: String) -> Date? {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    return formatter.date(from: text.trimmingCharacters(in: .whitespaces))
  }

  /// Runs a refresh of `sources` in its stages (``FeedRun``): the one entry point of a caller.
  public func run(_ sources: [FeedSource], _ options: FeedRun.Options = FeedRun.Options()) async
    -> FeedRun
  {
    var progress = RunProgress(remaining: sources.count, report: options.progress)
    let plan = self.plan(sources, options, progress: &progress)
    let fetched = await fetch(plan, sources: sources, options, progress: &progress)
    let warnings = await record(fetched.records)
    var reports = fetched.reports
    await enrich(&reports, sources: sources, wanting: fetched.wantingFullText)
    return FeedRun(reports: reports, warnings: warnings)
  }

  /// How many sources are still running, told as each finishes.
  private struct RunProgress {
    var remaining: Int
    var report: (@Sendable (Int) -> Void)?

    mutating func finished() {
      remaining -= 1
      report?(remaining)
    }
  }

  /// What planning left: the reports answered without a request, and the sources to fetch.
  private struct RunPlan {
    var reports: [FeedSourceReport?]
    var toFetch:
      [(index: Int, source: FeedSource, start: FeedSourceReport, cached: FeedCacheEntry?)] = []
    /// The saved searches, answered after the fetches.
    var searches: [Int] = []
  }

  /// What the run learnt, recorded once it is over.
  private struct RunRecords {
    var revalidated: [String: Date] = [:]
    var asked: [String: Date] = [:]
    var failed: [String: String] = [:]
    var answered = Set<String>()
    var arrived: [String] = []
  }

  /// Stage one: what the cache (or a wait, a search, an account) answers is answered now, in
  /// order and without a task each (a warm feed of 200 sources is 200 small reads); the rest is
  /// left to fetch.
  private func plan(
    _ sources: [FeedSource], _ options: FeedRun.Options, progress: inout RunProgress
  ) -> RunPlan {
    var plan = RunPlan(reports: [FeedSourceReport?](repeating: nil, count: sources.count))
    // A server that asked for a pause, for the source or its host (``FeedBackoff``); a source
    // failing run after run is asked less and less often (never given up on):
    // ``failureBackoff(_:)`` after its last failure.
    let waits = self.waits(failing: backsOffFailing)
    for (index, source) in sources.enumerated() {
      // A saved search is answered once the run's fetches are stored: it finds what they
      // brought (a feed named beside it, never fetched before).
      if source.search != nil {
        plan.searches.append(index)
        continue
      }
      let wait = waits.until(source)
      switch start(
        source, refresh: options.freshness == .refresh, offline: options.freshness == .offline,
        counting: options.items == .counted, waitUntil: wait,
        lastError: wait == nil ? nil : waits.failing[source.name]?.error)
      {
      case .done(var report):
        report.give(options.items)
        plan.reports[index] = report
        progress.finished()
      case .fetch(var report, var cached):
        // What the cache holds waits packed (for a 304, or shown stale if the fetch fails):
        // a refresh of 1,000 cached feeds does not hold 50,000 decoded items until each turn.
        report.packItems()
        cached?.items = []
        plan.toFetch.append((index, source, report, cached))
      }
    }
    return plan
  }

  /// Stage two: the sources left are fetched concurrently, each stored as it arrives, each
  /// report made what the options ask as its source finishes.
  private func fetch(
    _ plan: RunPlan, sources: [FeedSource], _ options: FeedRun.Options,
    progress: inout RunProgress
  ) async -> (reports: [FeedSourceReport], records: RunRecords, wantingFullText: [Int: [Article]]) {
    // Back-pressure: a source counts from its request until its items are stored, and no more
    // than twice the requests in flight count at once. When a thousand answers arrive together
    // and the store's writer falls behind, fetching waits for it, rather than the items of
    // hundreds of sources waiting in memory (a refresh at any arrival rate stays this size). The
    // next source starts as one finishes: ten thousand sources are not ten thousand tasks
    // parked on a limiter (each suspended and woken again: a tenth of a refresh where every
    // source answers 304).
    let window = Self.pendingSources(transport)
    var reports = plan.reports
    var records = RunRecords()
    var wantingFullText: [Int: [Article]] = [:]
    let pauses = HostPauses()
    await withTaskGroup(of: (Int, FeedSourceReport).self) { group in
      var started = 0
      func startNext() {
        guard started < plan.toFetch.count else { return }
        let (index, source, report, cached) = plan.toFetch[started]
        started += 1
        group.addTask {
          await writer.announced {
            (index, await fetch(source, report: report, cached: cached, pauses: pauses))
          }
        }
      }
      while started < min(window, plan.toFetch.count) { startNext() }
      if started < plan.toFetch.count { onWaitingToStart?(plan.toFetch.count - started) }
      while let (index, finished) = await group.next() {
        startNext()
        var report = finished
        // Items left in the cache (a sync's source answered 304, or failing) keep the count
        // its directory gave.
        if !report.itemsDeferred { report.itemCount = report.pack?.count ?? report.items.count }
        records.arrived += report.newItemIDs
        // A source's first answer is what it held, not news: `sources import` of 500 feeds,
        // then a sync, ran 10,000 hooks.
        if options.newItems, !report.newItemIDs.isEmpty, !report.firstAnswer {
          let new = Set(report.newItemIDs)
          report.newItemList = report.unpackedItems.filter { new.contains($0.id) }
        }
        if fullText != nil, sources[index].fullText, report.status != .failed {
          wantingFullText[index] = report.firstItems(Self.fullTextPerRun).map(\.article)
        }
        if options.items == .counted {
          // Counted: what was fetched is stored; the run keeps no item of it.
          report.items = []
          report.pack = nil
        }
        report.give(options.items)
        reports[index] = report
        if report.status == .failed || report.status == .stale {
          records.failed[report.name] = report.error ?? "failed"
        } else if report.status == .fresh {
          records.answered.insert(report.name)
        }
        if report.revalidated, let fetchedAt = report.fetchedAt {
          records.revalidated[report.name] = fetchedAt
        }
        if let until = report.backoffUntil { records.asked[report.name] = until }
        progress.finished()
      }
    }
    for index in plan.searches {
      guard let words = sources[index].search else { continue }
      var report = answer(sources[index], searching: words)
      report.give(options.items)
      reports[index] = report
      progress.finished()
    }
    // A host that answered 429 holds its other sources in the runs to come too.
    for (host, until) in pauses.all { records.asked[host] = until }
    // Those answered without a fetch (the cache, a backoff) count their items too.
    let finished = reports.compactMap { report -> FeedSourceReport? in
      guard var report, report.itemCount == 0 else { return report }
      report.itemCount = report.pack?.count ?? report.items.count
      return report
    }
    return (finished, records, wantingFullText)
  }

  /// Stage three: what the run learnt, recorded (unchanged sources cost one small write for all
  /// of them). Each record that fails is a warning of the run saying what it costs; the run
  /// goes on.
  private func record(_ records: RunRecords) async -> [String] {
    let current = now()
    var warnings: [String] = []
    func noting(_ what: String, _ cost: String, _ error: (any Error)?) {
      guard let error else { return }
      warnings.append("\(what) not recorded (\(Self.describe(error))): \(cost)")
    }
    // When the new items were first seen, for `feed --since`.
    if let articles, !records.arrived.isEmpty {
      noting(
        "when the new items were first seen", "feed --since may miss them or show them again",
        await StoreWriter.run { [arrived = records.arrived] in
          Self.attempt { try articles.noteArrivals(arrived, at: current) }
        })
    }
    noting(
      "the sources answered unchanged", "they are asked in full next run",
      await StoreWriter.run { [revalidation, revalidated = records.revalidated] in
        Self.attempt { try revalidation.record(revalidated, now: current) }
      })
    if !records.asked.isEmpty {
      let backoff = FeedBackoff(store: cache)
      noting(
        "the sources' waits (Retry-After)", "they may be asked again before their wait ends",
        await StoreWriter.run { [asked = records.asked] in
          Self.attempt { try backoff.record(asked, now: current) }
        })
    }
    // Nothing fetched (a warm feed): the record of failing sources is not even read.
    if !records.failed.isEmpty || !records.answered.isEmpty {
      let failures = FeedFailures(store: cache)
      noting(
        "which sources fail", "the list of failing sources may be out of date",
        await StoreWriter.run { [failed = records.failed, answered = records.answered] in
          Self.attempt { try failures.record(failed: failed, answered: answered, now: current) }
        })
    }
    return warnings
  }

  /// Stage four: the full texts of the sources that keep them, after their items are kept; a
  /// failure is a warning of its source, tried again next run.
  private func enrich(
    _ reports: inout [FeedSourceReport], sources: [FeedSource], wanting: [Int: [Article]]
  ) async {
    guard let fullText else { return }
    var wanting = wanting
    for (index, source) in sources.enumerated()
    where source.fullText && wanting[index] == nil && index < reports.count {
      wanting[index] = reports[index].firstItems(Self.fullTextPerRun).map(\.article)
    }
    let failures = await fullText.fetchMissing(
      wanting.keys.sorted().flatMap { wanting[$0] ?? [] }
    ).failures
    for (article, reason) in failures {
      if let index = reports.firstIndex(where: { $0.name == article.provider }) {
        reports[index].warnings.append(reason)
      }
    }
  }

  /// How many sources may be between their request and their items stored at once: twice the
  /// requests in flight, so that a source pausing between retries or waiting for the writer
  /// never keeps the network idle.
  static func pendingSources(_ transport: HTTPTransport) -> Int {
    2 * transport.maximumConcurrentRequests
  }

  /// Told how many sources wait to start (the back-pressure holding them) when a run has more
  /// than may be under way at once: tests wait on it rather than on the clock.
  var onWaitingToStart: (@Sendable (Int) -> Void)?

  /// How many sources wait for the store's writer now (tests watch the back-pressure with it).
  var waitingForWriter: Int { articles == nil ? 0 : writer.pendingCount }

  /// Tells `observe` how many sources wait for the writer each time one more does.
  func observeWaitingForWriter(_ observe: @escaping @Sendable (Int) -> Void) {
    if articles != nil { writer.observeQueued(observe) }
  }

  /// `nil` when `work` succeeded, else what it threw.
  static func attempt(_ work: () throws -> Void) -> (any Error)? {
    do {
      try work()
      return nil
    } catch {
      return error
    }
  }

  /// An error as a user reads it.
  static func describe(_ error: any Error) -> String {
    (error as? any NewsError)?.message ?? "\(error)"
  }

  /// How a source starts: answered already (from the cache, or failed), or to be fetched.
  private enum Start {
    case done(FeedSourceReport)
    case fetch(FeedSourceReport, cached: FeedCacheEntry?)
  }

  private func start(
    _ source: FeedSource, refresh: Bool, offline: Bool, counting: Bool,
    waitUntil wait: (until: Date, reason: NextFetch.Reason)?, lastError: String? = nil
  ) -> Start {
    if source.account != nil { return .done(answer(stored: source)) }
    let current = now()
    // A run that only counts items (a sync) reads a source's summary first: a source whose
    // items are in the store and counted in the cache's directory is answered from it when not
    // due, its items never decrypted (half of a sync of 10,000 sources with none due); asked,
    // its items are read only if its answer needs them (``FeedSourceReport/itemsDeferred``).
    // Any other is read whole (a source keeping full texts fetches them for its items).
    var read = cachedEntry(source, items: !counting)
    var deferred = false
    if counting {
      let summarized =
        read.entry.map { read.error == nil && read.itemCount != nil && $0.kept == true } ?? false
      if !summarized || source.fullText {
        read = cachedEntry(source)
      } else if let cached = read.entry {
        deferred =
          refresh
          || !(offline
            || current
              < cached.fetchedAt.addingTimeInterval(
                refreshBounds.lifetime(source, cached).seconds))
      }
    }
    let (cached, cachedPack, cacheError, summaryCount) = read
    let (lifetime, reason) = refreshBounds.lifetime(source, cached)
    var report = FeedSourceReport(
      name: source.name, url: source.url, status: .failed, fetchedAt: cached?.fetchedAt,
      expiresAt: cached.map { $0.fetchedAt.addingTimeInterval(lifetime) },
      error: cacheError, items: source.limited(cached?.items ?? []), attempts: 0, newItems: 0)
    if var cachedPack {
      if let maxItems = source.maxItems { cachedPack.prefix(maxItems) }
      report.pack = cachedPack
    } else if let summaryCount {
      report.itemCount = min(summaryCount, source.maxItems ?? summaryCount)
      report.itemsDeferred = deferred
    }
    report.next = report.expiresAt.map {
      NextFetch(at: $0, reason: reason, interval: lifetime, postsEvery: cached?.postsEvery)
    }
    if let cached,
      offline || (!refresh && current < cached.fetchedAt.addingTimeInterval(lifetime))
    {
      report.status = .cached
      if cached.kept != true {
        var entry = cached
        if let cachedPack { entry.items = cachedPack.items }
        report.notKept = keep(&entry, source: source)
        if report.notKept == nil {
          do {
            try feedCache.commit([(source.name, try entry.encoded())])
          } catch {
            report.warnings.append(
              "source \(source.name): its cache not updated (\(Self.describe(error))): its items "
                + "are kept again next run")
          }
        }
      }
      return .done(report)
    }
    if let cacheError {
      // A damaged cache entry is never replaced: the source fails until it is looked at.
      report.error = "source \(source.name): \(cacheError)"
      return .done(report)
    }
    if offline {
      report.error = "source \(source.name): nothing cached (offline)"
      report.neverFetched = true
      return .done(report)
    }
    if let wait, wait.until > current {
      // The server asked for a pause (429 or 503 with Retry-After), or the source has failed
      // run after run: it is not asked before then.
      let failing = wait.reason != .retryAfter
      // The last failure's reason leads: `feed --source gone` shows why it fails.
      report.error =
        failing
        ? (lastError.map { $0 + "; failing run after run, asked again " }
          ?? "source \(source.name): failing run after run; asked again ")
          + RelativeTime.until(wait.until, now: current) + ", at "
          + ISO8601.string(from: wait.until)
        : "source \(source.name): the server asked not to be asked again before "
          + ISO8601.string(from: wait.until) + " (Retry-After; "
          + RelativeTime.until(wait.until, now: current) + ")"
      if failing { report.advice = .refreshNow }
      report.leftAlone = true
      report.next = NextFetch(at: wait.until, reason: wait.reason, postsEvery: cached?.postsEvery)
      report.status = cached == nil ? .failed : .stale
      return .done(report)
    }
    return .fetch(report, cached: cached)
  }

  /// The cached items a sync left in the cache (``FeedSourceReport/itemsDeferred``), read now
  /// that its answer needs them: a 304 writing the entry again, or a 200 whose new items are
  /// told from them. Throws, writing nothing, when they cannot be read.
  private func readDeferredItems(
    of source: FeedSource, into report: inout FeedSourceReport, pack: inout FeedItemPack
  ) throws {
    guard report.itemsDeferred else { return }
    let (entry, cachedPack, error, _) = cachedEntry(source)
    guard let entry else {
      throw FeedError.cacheUnread(source: source.name, detail: error ?? "its entry is gone")
    }
    var items = cachedPack ?? FeedItemPack(entry.items)
    if let maxItems = source.maxItems { items.prefix(maxItems) }
    report.pack = items
    report.itemsDeferred = false
    pack = items
  }

  /// Keeps `response`, fetched for the new `source` by `news sources add`, as a refresh keeps
  /// it (the cache entry, the articles in the store), without asking for it again.
  public func keep(_ response: HTTPResponse, for source: FeedSource) async -> FeedSourceReport {
    var report = FeedSourceReport(
      name: source.name, url: source.url, status: .failed, fetchedAt: nil, expiresAt: nil,
      error: nil, items: [], attempts: response.attempts, newItems: 0)
    do {
      var origin = response.origin
      origin.url = origin.url ?? source.url
      let decoded = try source.adapter.decode(response.body, source: source.name, origin: origin)
      report.warnings += decoded.notes.map { "source \(source.name): \($0)" }
      var entry = FeedCacheEntry(
        url: source.url.absoluteString, items: [], fetchedAt: now(),
        etag: response.headers["etag"], lastModified: response.headers["last-modified"])
      entry.hint = FreshnessHint.longest([
        decoded.refreshHint, Self.responseHint(response.headers, now: now()),
      ])
      entry.postsEvery = PostingRate.interval(of: decoded.items, at: entry.fetchedAt)
      entry.describe(as: decoded)
      var kept = await written(
        entry, items: FeedItemPack(source.limited(decoded.items)), source: source, known: [],
        report: report)
      kept.unpackItems()
      return kept
    } catch {
      report.error = (error as? any NewsError)?.message ?? String(describing: error)
      return report
    }
  }

  /// Writes `entry`, fresh from the network, its items `pack`ed, to the cache and its articles
  /// to the store (under the writers' lock), and says so in `report`, with the items not
  /// `known` before as new. The items wait for the writer packed: when the store is slower than
  /// the network, hundreds of sources wait at once.
  private func written(
    _ entry: FeedCacheEntry, items pack: FeedItemPack, source: FeedSource, known: Set<String>,
    report: FeedSourceReport
  ) async -> FeedSourceReport {
    var report = report
    // The articles, then the cache entry that says they were kept, with the other sources
    // answering meanwhile: one commit.
    let written = await writer.submit(Answer(source: source.name, entry: entry, pack: pack))
    if let failure = written.notKept {
      report.notKept = "source \(source.name): its items were not stored: \(failure)"
    }
    if let warning = await keepEnclosures(pack.enclosuresByID, source: source) {
      report.warnings.append(warning)
    }
    let notCached = written.notCached
    if let notCached {
      report.error = "source \(source.name): not cached: " + notCached
    }
    // Named, not copied: the items themselves are picked out only when wanted (a hook).
    report.newItemIDs = pack.ids.filter { !known.contains($0) }
    report.newItems = report.newItemIDs.count
    var shown = pack
    if notCached == nil {
      // In the entry now: the run holds their ids, and reads the rest back to show them (a
      // thousand sources' items held to the end cost more than reading them back).
      shown.spill { [feedCache, name = source.name] in
        do { return try feedCache.entry(of: name) } catch { return nil }
      }
    }
    if let maxItems = source.maxItems { shown.prefix(maxItems) }
    report.items = []
    report.pack = shown
    report.fetchedAt = entry.fetchedAt
    report.expiresAt = entry.fetchedAt.addingTimeInterval(
      refreshBounds.lifetime(source, entry).seconds)
    report.status = .fresh
    return report
  }

  /// Keeps the items of `batch` as articles (when there is a store for them), then writes their
  /// cache entries, saying whether they were kept: one commit of each.
  private static func commit(_ batch: [Answer], articles: ArticleStore?, cache: FeedCache)
    -> Written
  {
    var written = Written()
    if let articles {
      do {
        try articles.keep(batch.map { ($0.pack.items.map(\.article), $0.source) })
      } catch {
        written.notKept = (error as? any NewsError)?.message ?? String(describing: error)
      }
    }
    let kept = articles != nil && written.notKept == nil
    do {
      try cache.commit(
        batch.map { answer in
          var entry = answer.entry
          if kept { entry.kept = true }
          return try FeedCache.Pending(source: answer.source, entry: entry, pack: answer.pack)
        })
    } catch {
      written.notCached = (error as? any NewsError)?.message ?? String(describing: error)
    }
    return written
  }

  /// The output of a source's command (its document), or why there is none.
  private static func run(
    _ command: SourceCommand, input: Data, source: String, with runner: SourceCommandRunner?
  ) async throws -> Data {
    guard let runner else {
      throw FeedError.command(source: source, detail: "its command is not run here")
    }
    return try await runner.output(of: command.command, input: input, source: source)
  }

  private func fetch(
    _ source: FeedSource, report: FeedSourceReport, cached: FeedCacheEntry?, pauses: HostPauses
  ) async -> FeedSourceReport {
    var report = report
    let counter = AttemptCounter()
    let transport = counter.counting(self.transport)
    if source.command?.kind != .exec, let until = pauses.until(source.url, now: now()) {
      // Another source of this host was just answered 429: this one is not asked either.
      report.error =
        "source \(source.name): its server asked not to be asked again before "
        + ISO8601.string(from: until) + " (Retry-After)"
      report.status = cached == nil ? .failed : .stale
      return report
    }
    if source.command?.kind != .exec, let reason = pauses.unreachable(source.url) {
      // Another source of this server found it unreachable, after its retries: this one is
      // not asked in this run (the next run asks again).
      report.error =
        "source \(source.name): \(reason) (found by another of its sources; not asked again "
        + "in this run)"
      report.status = cached == nil ? .failed : .stale
      return report
    }
    do {
      var headers: [String: String] = [:]
      // A web feed asks for a feed: a server that negotiates must not answer JSON for a page.
      if source.adapter is SyndicationAdapter { headers["Accept"] = SyndicationAdapter.accept }
      if let etag = cached?.etag { headers["If-None-Match"] = etag }
      if let lastModified = cached?.lastModified { headers["If-Modified-Since"] = lastModified }
      let url = source.url
      // Fetching and reading both run under the deadline: a document that is slow to read is
      // stopped with it (the reader is linear in the capped body, and checks for cancellation).
      let adapter = source.adapter
      let sourceName = source.name
      let limited = source.limited
      let command = source.command
      let commands = self.commands
      let asked = now()
      let (response, decoded) = try await deadline.run {
        [headers] () async throws -> (
          HTTPResponse,
          (items: FeedItemPack, read: DecodedFeed, postsEvery: Double?)?
        ) in
        var response: HTTPResponse
        if let command, command.kind == .exec {
          response = HTTPResponse(
            status: 200,
            body: try await Self.run(command, input: Data(), source: sourceName, with: commands),
            url: url)
        } else {
          response = try await transport.get(url, headers: headers)
          guard response.succeeded else { return (response, nil) }
          if let command {
            response.body = try await Self.run(
              command, input: response.body, source: sourceName, with: commands)
          }
        }
        guard response.succeeded else { return (response, nil) }
        var origin = response.origin
        origin.url = origin.url ?? url
        var decoded = try adapter.decode(response.body, source: sourceName, origin: origin)
        // Read: the body is let go here, not held while the items wait for the store (a run of
        // 1,000 feeds would hold every body at once).
        response.body = Data()
        // Packed as soon as read: the items wait for the store's writer as bytes.
        let pack = FeedItemPack(limited(decoded.items))
        let postsEvery = PostingRate.interval(of: decoded.items, at: asked)
        decoded.items = []
        return (response, (pack, decoded, postsEvery))
      }
      var entry: FeedCacheEntry
      var pack = report.pack ?? FeedItemPack(report.items)
      if response.status == 304, let cached, cached.kept == true,
        now().timeIntervalSince(cached.writtenAt ?? cached.fetchedAt)
          < RevalidationTimes.rewriteAfter
      {
        // Unchanged, and written in full less than a day ago: nothing but the time is written
        // (the report holds the cached items already, packed).
        report.fetchedAt = now()
        report.expiresAt = report.fetchedAt?.addingTimeInterval(
          refreshBounds.lifetime(source, cached).seconds)
        report.status = .fresh
        report.revalidated = true
        report.attempts = counter.value
        return report
      } else if response.status == 304, var revalidated = cached {
        try readDeferredItems(of: source, into: &report, pack: &pack)
        revalidated.fetchedAt = now()
        entry = revalidated
      } else if let (items, read, postsEvery) = decoded {
        // The items known before, to tell the new ones.
        try readDeferredItems(of: source, into: &report, pack: &pack)
        report.warnings += read.notes.map { "source \(source.name): \($0)" }
        pack = items
        entry = FeedCacheEntry(
          url: source.url.absoluteString, items: [], fetchedAt: now(),
          etag: response.headers["etag"], lastModified: response.headers["last-modified"])
        entry.hint = FreshnessHint.longest([
          read.refreshHint, Self.responseHint(response.headers, now: now()),
        ])
        entry.postsEvery = postsEvery
        entry.describe(as: read)
      } else {
        if response.status == 429 || response.status == 503,
          let header = response.headers["retry-after"],
          let pause = RetryPolicy.parseRetryAfter(header, now: now()), pause > .zero
        {
          let until = now().addingTimeInterval(min(pause.seconds, Self.longestHint))
          report.backoffUntil = until
          // Too many requests: from this client to the whole host, not to this feed alone.
          if response.status == 429, source.command?.kind != .exec {
            pauses.pause(source.url, until: until)
          }
        }
        throw FeedError.status(
          source: source.name, code: response.status, attempts: response.attempts)
      }
      report.firstAnswer = cached == nil
      report = await written(
        entry, items: pack, source: source, known: Set(cached == nil ? [] : report.itemIDs),
        report: report)
    } catch {
      let message = (error as? any NewsError)?.message ?? String(describing: error)
      if source.command?.kind != .exec {
        pauses.noteFailure(error, of: source.url, message: message)
      }
      // Every message about a source names it.
      let named =
        message.hasPrefix("source \(source.name) ") || message.hasPrefix("source \(source.name):")
      report.error = named ? message : "source \(source.name): \(message)"
      report.status = cached == nil ? .failed : .stale
    }
    report.attempts = counter.value
    return report
  }

  /// A saved search's report: the newest matches of its query in the store (the query language
  /// of `news search`), at most `maxItems` (100 by default), as items of the sources that hold
  /// them; always fresh, never cached.
  private func answer(_ source: FeedSource, searching words: String) -> FeedSourceReport {
    var report = FeedSourceReport(
      name: source.name, url: source.url, status: .fresh, fetchedAt: now(), expiresAt: now(),
      error: nil, items: [], attempts: 0, newItems: 0)
    guard let articles else { return report }
    do {
      // config.json's query was read when the file was: one that does not read is refused there.
      let query = try ArticleQuery(words, timeZone: timeZone)
      let facts = try articles.facts(for: query, now: now(), tags: { sourceTags })
      let found = try articles.search(
        QueryMatcher(query, facts: facts), limit: source.maxItems ?? 100)
      try facts.readMarkShards?.check()
      report.items = source.limited(found.articles.map(FeedItem.init(article:)))
      report.warnings += found.warnings.map { "source \(source.name): \($0)" }
    } catch {
      report.status = .failed
      report.error =
        "source \(source.name): " + ((error as? any NewsError)?.message ?? "\(error)")
    }
    return report
  }

  /// An account feed's report: its items in the store, newest first, at most `maxItems` (200 by
  /// default), as of the account's last sync (`news sync` brings new ones).
  private func answer(stored source: FeedSource) -> FeedSourceReport {
    var report = FeedSourceReport(
      name: source.name, url: source.url, status: .cached, fetchedAt: source.syncedAt,
      expiresAt: nil, error: nil, items: [], attempts: 0, newItems: 0)
    // Asked by its account's sync, never by itself.
    report.next = NextFetch(at: nil, reason: .account)
    guard let articles else { return report }
    do {
      let stored = ArticleSearch.newestFirst(try articles.articles(provider: source.name))
      report.items = Array(stored.prefix(source.maxItems ?? 200)).map(FeedItem.init(article:))
      if source.syncedAt == nil {
        report.status = .failed
        report.error = "source \(source.name): not synced yet"
        report.advice = .sync
      }
    } catch {
      report.status = .failed
      report.error =
        "source \(source.name): " + ((error as? any NewsError)?.message ?? "\(error)")
    }
    return report
  }

  /// Keeps `enclosures`, by item id (only a fetch has them: the cache keeps none); a failure is
  /// a warning, the items are kept all the same.
  private func keepEnclosures(_ enclosures: [String: [Enclosure]], source: FeedSource) async
    -> String?
  {
    guard let articles, !enclosures.isEmpty else { return nil }
    return await StoreWriter.run { () -> String? in
      do {
        try articles.keepEnclosures(enclosures)
        return nil
      } catch {
        let message = (error as? any NewsError)?.message ?? String(describing: error)
        return "source \(source.name): its enclosures were not stored: \(message)"
      }
    }
  }

  /// Keeps the entry's items as articles of `source` (refreshing when they were last seen, so
  /// that retention keeps what the source still lists); returns why not, if they were not.
  private func keep(_ entry: inout FeedCacheEntry, source: FeedSource) -> String? {
    guard let articles else { return nil }
    do {
      try articles.keep(entry.items.map(\.article), provider: source.name)
      entry.kept = true
      return nil
    } catch {
      let message = (error as? any NewsError)?.message ?? String(describing: error)
      return "source \(source.name): its items were not stored: \(message)"
    }
  }
}
