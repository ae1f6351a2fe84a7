import FeedParsing
import Foundation
import NewsCore

/// `news feed`: every feed source, fetched concurrently, shown when all have answered.
enum FeedCommand {
  static let spec = CommandSpec(
    name: "feed",
    abstract: "Show the feed: every source fetched in parallel, each cached.",
    discussion: """
      Each source is cached (encrypted) and asked again as often as it posts (within
      NEWS_REFRESH_MIN and NEWS_REFRESH_MAX: 15 min and a day for a web feed; A 5 min, B 30 min,
      C 60 min at least), or as its ttl, its feed or its server says ('news sources' shows when
      and why; --refresh asks every source). An account's feeds come from its server: --refresh
      syncs the accounts whose feeds it shows first (every account without --source or --tag),
      and without it an account never synced (one just added) is synced first. A failing source
      never hides the others.
      Items are numbered across sources, so 'news show 3' opens the third; every item is stored as
      an article of its source, for show, bookmark, search and read state.

      --source and --tag together: the named sources filed under the tag. With --where, only the
      items the query matches (docs/queries.md: 'is:unread tag:tech age<7d', '"swift 6" OR
      author:lee'); the sources' unread counts stay theirs.

      EXAMPLES:
        news feed
        news feed --where 'is:unread age<2d'
        news feed --source a,c
        news feed --json | jq -r '.items[].title'
      """,
    options: [
      Options.feedSources.spec, Options.tag.spec, Options.limit.spec, Options.unread.spec,
      Options.newOnly.spec, Options.since.spec, Options.whereQuery.spec, Options.showIgnored.spec,
    ]
      + Options.freshness + Options.output)

  static let entry = CommandEntry(
    spec: spec, usesNetwork: { !$0[Options.offline] }, validate: validate, run: run)

  /// Names for a line: all of them when ``SourceName/namedAtMost`` or fewer, else the first
  /// ones and `…`.
  static func someNames(_ names: [String]) -> String {
    names.count <= SourceName.namedAtMost
      ? names.joined(separator: ", ")
      : names.prefix(SourceName.namedAtMost).joined(separator: ", ") + ", …"
  }

  /// `--since`'s time: an ISO 8601 one, or a duration back from `now` (`12h`, `2d`).
  static func sinceDate(_ text: String, now: Date) -> Date? {
    ISO8601.date(from: text) ?? AgeDuration.seconds(text).map { now.addingTimeInterval(-$0) }
  }

  /// `--offline` with `--refresh`; an unknown `--source`; the output options.
  static func validate(_ arguments: ParsedArguments, context: Context) throws {
    try UsageError.checkFreshness(arguments, command: spec.name)
    _ = try OutputFormat(arguments)
    // The sources are read only to check a name or a tag (at 10,000 sources they cost a URL
    // parsed each).
    if !wanted(arguments).isEmpty || arguments[Options.tag] != nil {
      let sources = try context.services().feedSources()
      let names = sources.map(\.name)
      if let unknown = wanted(arguments).first(where: { !names.contains($0) }) {
        throw UsageError.unknownSource(unknown, among: names, command: spec.name)
      }
      try UsageError.checkTag(arguments[Options.tag], among: sources, command: spec.name)
      if let tag = arguments[Options.tag], !wanted(arguments).isEmpty,
        FeedRegistry.selected(sources, names: wanted(arguments), tag: tag).isEmpty
      {
        throw UsageError(
          command: spec.name,
          message: "--source and --tag leave no source: \(someNames(wanted(arguments))) "
            + (wanted(arguments).count == 1 ? "is" : "are") + " not filed under '\(tag)'")
      }
    }
    if let text = arguments[Options.whereQuery] {
      _ = try ArticleQuery(text, timeZone: context.timeZone)
    }
    if let since = arguments[Options.since] {
      guard sinceDate(since, now: context.timing.now()) != nil else {
        throw UsageError(
          command: spec.name,
          message:
            "--since expects an ISO 8601 time such as 2026-11-25T08:00:00Z, or how long ago "
            + "(30m, 12h, 2d, 1w), got '\(since)'")
      }
      if arguments[Options.newOnly] {
        throw UsageError(command: spec.name, message: "--new and --since contradict each other")
      }
    }
  }

  /// Syncs `accounts` as `news sync --account` does (holding the sync lock): the items it
  /// brought first (a newItem hook runs for them), and what could not be synced, as warnings
  /// (their feeds are then shown as stored).
  private static func syncAccounts(_ accounts: [String], services: NewsServices) async
    -> (newItems: [FeedItem], warnings: [String])
  {
    do {
      let report = try await services.sync().run(wait: false, only: accounts)
      return (
        report.sources.flatMap(\.newItems),
        report.sources.filter { $0.status == .failed }.map {
          "account \($0.name) not synced (its feeds are as stored): \($0.error ?? "failed")"
        }
      )
    } catch {
      return (
        [],
        [
          "accounts not synced (their feeds are as stored): "
            + ((error as? any NewsError)?.message ?? "\(error)")
        ]
      )
    }
  }

  /// The sources `--source` names, in lower case.
  private static func wanted(_ arguments: ParsedArguments) -> [String] {
    (arguments[Options.feedSources] ?? []).map { $0.lowercased() }
  }

  static func run(_ arguments: ParsedArguments, context: Context) async throws -> ExitCode {
    let limit = arguments[Options.limit]
    let format = try OutputFormat(arguments)
    let configuration = try context.configuration()
    let services = try context.services()
    var sources = FeedRegistry.selected(
      services.feedSources(), names: wanted(arguments), tag: arguments[Options.tag])
    let spinner = Spinner(
      line: context.statusLine, unicode: context.console.unicode, pause: context.timing.limit)
    // An account's feed is brought by its account's sync: --refresh syncs the accounts of the
    // sources shown (their marks sent, their new items brought), then reads them anew.
    var accounts = Array(Set(sources.compactMap(\.account))).sorted()
    if !arguments[Options.refresh] {
      // Without --refresh, an account never synced is due, as a source never fetched is.
      accounts = Array(Set(sources.compactMap { $0.syncedAt == nil ? $0.account : nil })).sorted()
    } else if !arguments[Options.offline], wanted(arguments).isEmpty, arguments[Options.tag] == nil
    {
      // Every source is shown: every account, one not synced yet too (its feeds are known
      // once it is).
      do {
        accounts = try services.accounts().accounts().map(\.name).sorted()
      } catch {
        context.warn("accounts not synced: " + ((error as? any NewsError)?.message ?? "\(error)"))
      }
    }
    var accountItems: [FeedItem] = []
    if !arguments[Options.offline], !accounts.isEmpty {
      spinner.start("syncing \(accounts.count.counted("account"))…")
      let synced = await syncAccounts(accounts, services: services)
      for warning in synced.warnings { context.warn(warning) }
      accountItems = synced.newItems
      await spinner.stop()
      sources = FeedRegistry.selected(
        services.feedSources(), names: wanted(arguments), tag: arguments[Options.tag])
    }
    var service = try services.feed()
    // --refresh asks every source now, one failing run after run too.
    service.backsOffFailing = !arguments[Options.refresh]
    // Which sources were failing before this run: those failing again are said in one line.
    let failingBefore = service.failures()
    let lists = try services.lists()
    if let warning = services.accountSourcesWarning() { context.warn(warning.sentence) }

    // The plain feed fetches the hidden sources too, when due, as newsboat's reload does: the
    // saved searches and tags list their items. They are not listed.
    let hidden =
      wanted(arguments).isEmpty && arguments[Options.tag] == nil && !arguments[Options.offline]
      ? FeedRegistry.hiddenFetched(services.feedSources()) : []
    sources += hidden
    spinner.start("fetching \(sources.count.counted("source"))…")
    let total = sources.count
    // A newItem hook runs for the items this run stores first (whichever command does): their
    // list is kept only then.
    let hooks = services.hooks.newItem != nil
    let run = await service.run(
      sources,
      FeedRun.Options(
        freshness: .init(refresh: arguments[Options.refresh], offline: arguments[Options.offline]),
        items: .packed, newItems: hooks
      ) { remaining in
        spinner.update("fetching \(total.counted("source"))… \(total - remaining) done")
      })
    var reports = run.reports
    for warning in run.warnings { context.warn(warning) }
    var hiddenNew: [FeedItem] = []
    if !hidden.isEmpty {
      // A hidden source is not listed, but its failure is said (unless it was failing before:
      // news sources --failing lists it).
      let names = Set(hidden.map(\.name))
      for report in reports
      where names.contains(report.name) && failingBefore[report.name] == nil
        && (report.status == .failed || report.status == .stale)
      {
        context.warn(report.errorSentence ?? "source \(report.name) failed")
      }
      for report in reports where names.contains(report.name) {
        for warning in report.warnings { context.warn(warning) }
      }
      // Their new items run the hook with the others' below.
      hiddenNew = reports.filter { names.contains($0.name) }.flatMap(\.newItemList)
      reports.removeAll { names.contains($0.name) }
    }
    if hooks {
      let new = accountItems + hiddenNew + reports.flatMap(\.newItemList)
      for index in reports.indices { reports[index].newItemList = [] }
      for warning in await NewItemHook.run(new, services: services, context: context) {
        context.warn(warning)
      }
    }
    if arguments[Options.newOnly] {
      // Only what this run fetched and no cache held before: a stream for scripts (an
      // account's feed: what its sync just brought).
      let accountNew = Dictionary(grouping: accountItems, by: \.feed).mapValues {
        Set($0.map(\.id))
      }
      for index in reports.indices {
        let new = Set(reports[index].newItemIDs).union(accountNew[reports[index].name] ?? [])
        reports[index].keepItems { new.contains($0) }
      }
    }
    if let text = arguments[Options.since], let since = sinceDate(text, now: context.timing.now()) {
      // Only the items first seen since then (an item first seen before any record: not new).
      let arrivals = try lists.arrivals(of: reports.flatMap(\.itemIDs))
      for index in reports.indices {
        reports[index].keepItems { (arrivals[$0] ?? .distantPast) >= since }
      }
    }
    await spinner.stop()
    let query = try arguments[Options.whereQuery].map {
      try ArticleQuery($0, timeZone: context.timeZone)
    }
    let result = lists.feed(
      consume reports, unreadOnly: arguments[Options.unread], limit: limit,
      showIgnored: arguments[Options.showIgnored], where: query)

    // Warnings when the command succeeds; when every source failed, each failure is an error
    // line and the last line says so.
    let everyFailed = result.everyFailed
    var stillFailing: [String] = []
    // The first failures each get their line; past ``SourceName/namedAtMost`` the rest are one
    // line (the network down under 10,000 sources is not 10,000 lines).
    var (said, unsaid) = (0, [String]())
    // An account never synced (offline, or its sync failed) is one line, not one a feed.
    var notSynced: [String: Int] = [:]
    for report in result.sourceReports where report.status == .failed || report.status == .stale {
      if report.next?.reason == .account, report.fetchedAt == nil,
        let slash = report.name.firstIndex(of: "/")
      {
        notSynced[String(report.name[..<slash]), default: 0] += 1
        continue
      }
      // Failing run after run: said once, in one line below, not a block each run; unless
      // nothing else answered, when its reason is the news (`feed --source gone`).
      if failingBefore[report.name] != nil, !everyFailed {
        stillFailing.append(report.name)
        continue
      }
      guard said < SourceName.namedAtMost else {
        unsaid.append(report.name)
        continue
      }
      said += 1
      let fallback = report.status == .stale ? "; showing its cached items" : ""
      let message = "\(report.errorSentence ?? "source \(report.name) failed")\(fallback)"
      if everyFailed { context.fail(message) } else { context.warn(message) }
    }
    // An account synced before whose feeds these are: they were subscribed since.
    let syncedBefore =
      notSynced.isEmpty
      ? [] : Set(services.feedSources().compactMap { $0.syncedAt == nil ? nil : $0.account })
    for (account, feeds) in notSynced.sorted(by: { $0.key < $1.key }) {
      let message =
        syncedBefore.contains(account)
        ? "account \(account): \(feeds.counted("feed")) subscribed since its last sync: "
          + "news sync --account \(account) brings \(feeds == 1 ? "its" : "their") items"
        : "account \(account) not synced yet (\(feeds.counted("feed"))): "
          + "news sync --account \(account) brings them"
      if everyFailed { context.fail(message) } else { context.warn(message) }
    }
    if !unsaid.isEmpty {
      let message =
        "\(unsaid.count.counted("more source")) failed too (\(Self.someNames(unsaid))): "
        + "news sources --failing"
      if everyFailed { context.fail(message) } else { context.warn(message) }
    }
    if !stillFailing.isEmpty {
      let since = stillFailing.compactMap { failingBefore[$0]?.since }.min() ?? 0
      let age = RelativeTime.describe(
        Date(timeIntervalSince1970: since), now: context.timing.now())
      let message =
        "\(stillFailing.count.counted("source")) failing since \(age) "
        + "(\(Self.someNames(stillFailing))): news sources --failing"
      if everyFailed { context.fail(message) } else { context.warn(message) }
    }
    for report in result.sourceReports {
      for warning in report.warnings { context.warn(warning) }
      if let notKept = report.notKept { context.warn(notKept) }
    }
    for warning in result.warnings { context.warn(warning) }
    // Kept before it is shown, as every other list is: `news feed | head` ends the output early
    // (a write to the closed pipe ends the process), and `news show 3` counts in it after.
    let kept = Result { try lists.keep(result) }
    render(
      result, format: format, configuration: configuration, context: context,
      stillFailing: Set(stillFailing),
      emptyByOptions: arguments[Options.newOnly] || arguments[Options.since] != nil
        ? "nothing new"
        : arguments[Options.whereQuery] != nil
          ? "nothing matches --where" : arguments[Options.unread] ? "nothing unread" : nil)
    if result.sourceReports.isEmpty, format == .text {
      context.printer.line(FeedRenderer.noSource)
    }
    context.displayed()
    do {
      if let warning = try kept.get() { context.warn(warning) }
    } catch let error as any NewsError {
      if !everyFailed { throw ListNotKeptError(underlying: error) }
    }
    guard !everyFailed else {
      throw FeedFailure(count: result.sourceReports.count)
    }
    return .success
  }

  private static func render(
    _ result: FeedListResult, format: OutputFormat, configuration: Configuration, context: Context,
    stillFailing: Set<String>, emptyByOptions: String?
  ) {
    switch format {
    case .json:
      FeedRenderer.json(
        result.reports, sources: result.sourceReports, read: result.read,
        ignored: result.showsIgnored ? result.ignored : nil
      ) { context.printer.text($0) }
    case .jsonLines:
      for report in result.reports {
        var lines = ""
        for item in report.items {
          lines +=
            FeedRenderer.item(
              item, read: result.read.contains(item.id),
              ignored: result.showsIgnored ? result.ignored.contains(item.id) : nil
            ).serialized() + "\n"
        }
        if !lines.isEmpty { context.printer.text(lines) }
      }
    case .text:
      let renderer = FeedRenderer(
        style: context.style(configuration), width: context.width(configuration),
        now: context.timing.now(), read: result.read, unread: result.unread,
        ignored: result.ignored, stillFailing: stillFailing, ignoredCounts: result.ignoredCounts,
        emptyByOptions: emptyByOptions, listedAbove: result.listedAbove)
      renderer.text(
        result.listedReports, count: result.sourceReports.count, items: result.itemCount,
        cutByLimit: result.cutByLimit
      ) { context.printer.text($0) }
    }
  }
}
