import Foundation
import NewsCore

/// `news feed`: every feed source, fetched concurrently, shown when all have answered.
enum FeedCommand {
  static let spec = CommandSpec(
    name: "feed",
    abstract: "Show the feed: every source (A, B, C, …) fetched in parallel, each cached.",
    discussion: """
      Each source is cached (encrypted) with its own time to live: A 5 min, B 30 min, C 60 min by
      default (NEWS_FEED_<NAME>_TTL overrides, in seconds). A failing source never hides the others.
      Items are numbered across sources, so 'news show 3' opens the third; every item is stored as
      an article of its source, for show, bookmark, search and read state.

      EXAMPLES:
        news feed
        news feed --source a,c
        news feed --json | jq -r '.items[].title'
      """,
    options: [Options.feedSources.spec, Options.limit.spec, Options.unread.spec]
      + Options.freshness + Options.output)

  static let entry = CommandEntry(spec: spec, usesNetwork: { !$0[Options.offline] }, run: run)

  static func run(_ arguments: ParsedArguments, context: Context) async throws -> ExitCode {
    if arguments[Options.offline], arguments[Options.refresh] {
      throw UsageError(command: spec.name, message: "--offline and --refresh contradict each other")
    }
    let limit = arguments[Options.limit]
    let format = try OutputFormat(arguments)
    let configuration = try context.configuration()
    let services = context.services(configuration)
    var sources = services.feedSources()
    let wanted = (arguments[Options.feedSources] ?? []).map { $0.lowercased() }
    if !wanted.isEmpty {
      let names = sources.map(\.name)
      if let unknown = wanted.first(where: { !names.contains($0) }) {
        throw UsageError(
          command: spec.name,
          message: "unknown source '\(unknown)'; the sources are \(names.joined(separator: ", "))",
          hint: Suggestion.closest(to: unknown, in: names).map { "did you mean '\($0)'?" })
      }
      sources = sources.filter { wanted.contains($0.name) }
    }
    let service = try services.feed()
    let store = try services.articleStore()

    let spinner = Spinner(
      line: context.statusLine, unicode: context.console.unicode, pause: context.timing.limit)
    spinner.start("fetching \(sources.count) sources…")
    let total = sources.count
    var reports = await service.fetch(
      sources, refresh: arguments[Options.refresh], offline: arguments[Options.offline]
    ) { remaining in
      spinner.update("fetching \(total) sources… \(total - remaining) done")
    }
    await spinner.stop()
    // One link in several sources is one item, under the first (FeedLinkMerge).
    reports = FeedLinkMerge.merged(reports)

    // Warnings when the command succeeds; when every source failed, each failure is an error
    // line and the last line says so.
    let everyFailed = reports.allSatisfy { $0.status == .failed }
    for report in reports where report.status == .failed || report.status == .stale {
      let fallback = report.status == .stale ? "; showing its cached items" : ""
      let message = "\(report.error ?? "source \(report.name) failed")\(fallback)"
      if everyFailed { context.fail(message) } else { context.warn(message) }
    }
    for report in reports {
      for warning in report.warnings { context.warn(warning) }
      if let notKept = report.notKept { context.warn(notKept) }
    }
    var marks = ReadMarks()
    do {
      marks = try store.readMarks()
    } catch let error as any NewsError {
      context.warn("read marks unavailable: " + error.message)
    }
    let read = marks.marked(reports.lazy.flatMap(\.items).map(\.id))
    var unread: [String: Int] = [:]
    for report in reports {
      unread[report.name] = report.items.lazy.filter { !read.contains($0.id) }.count
    }
    if arguments[Options.unread] {
      for index in reports.indices { reports[index].items.removeAll { read.contains($0.id) } }
    }
    var cut: Set<String> = []
    if let limit {
      var left = limit
      for index in reports.indices {
        let all = reports[index].items.count
        reports[index].items = Array(reports[index].items.prefix(left))
        if reports[index].items.count < all { cut.insert(reports[index].name) }
        left -= reports[index].items.count
      }
    }
    switch format {
    case .json:
      context.console.out(FeedRenderer.json(reports, read: read).serialized(pretty: true) + "\n")
    case .jsonLines:
      for item in reports.flatMap(\.items) {
        context.console.out(
          FeedRenderer.item(item, read: read.contains(item.id)).serialized() + "\n")
      }
    case .text:
      let renderer = FeedRenderer(
        style: context.style(configuration), width: context.width(configuration),
        now: context.timing.now(), read: read, unread: unread
      )
      renderer.text(reports, cutByLimit: cut) { context.console.out($0) }
    }
    context.displayed()
    // The numbers shown are what `news show 3` and `news open 3` count in.
    let items = reports.flatMap(\.items)
    let shown = items.map(\.id)
    var listing = Listing(
      key: "feed", provider: "feed", ids: shown, totalResults: shown.count,
      fetchedAt: context.timing.now())
    // Carried along when small, so `news show 3` reads only this file; 10,000 items of 200 feeds
    // are found by id instead, rather than written out on every run.
    if items.count <= Listing.maximumCarried { listing.articles = items.map(\.article) }
    do {
      try store.setLastListing(listing)
      try? store.noteListed(shown, marks: marks)
    } catch let error as any NewsError {
      if !everyFailed { throw ListNotKeptError(underlying: error) }
    }
    guard !everyFailed else {
      throw FeedFailure(count: reports.count)
    }
    return .success
  }
}
