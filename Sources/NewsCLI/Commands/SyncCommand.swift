import FeedParsing
import Foundation
import NewsCore

/// `news sync`: pulls every source into the store, for cron.
enum SyncCommand {
  static let spec = CommandSpec(
    name: "sync",
    abstract: "Pull every source into the encrypted store (for cron), so reading works offline.",
    discussion: """
      Pulls newsapi.org top headlines (when NEWSAPI_KEY is set), the articles API, BBC headlines
      and every feed source that is due (asked as often as it posts, or as its ttl, feed or server
      says: 'news sources' shows when; --refresh asks every one), concurrently, each with the
      retry policy, and syncs every account
      (news accounts): marks made here are sent, then new items, read and saved state come
      back; --account limits the sync to one account. Exit 0 when every source
      succeeded, 75 when some failed (what was pulled is kept), 69 when all failed, 78 for a
      configuration error. Another sync running: exit 75 at once, or wait with --wait.

      EXAMPLES:
        news sync
        news sync --quiet             # for cron: silent unless something failed
        news sync --refresh           # every feed source, due or not
        news sync --json | jq '.sources[] | select(.status == "failed")'
        news sync --account home      # only the account 'home'
        news sync --exec 'notify-send "$NEWS_ITEM_TITLE"'   # once per new item

      Hooks: "hooks": {"newItem": "<command>", "afterSync": "<command>"} in config.json run after
      the store committed (newItem once per new item, its JSON on stdin; afterSync once, the
      report on stdin), through /bin/sh -c, at most 4 at once, NEWS_HOOK_TIMEOUT each, without
      any secret in their environment; one that fails is a warning, never a failed sync.

      A crontab line, every 30 minutes:
        */30 * * * * NEWS_STORE_KEY=... news sync --quiet
      """,
    options: [
      Options.wait.spec, Options.account.spec, Options.quiet.spec, Options.json.spec,
      Options.exec.spec, Options.refresh.spec,
    ])

  static let entry = CommandEntry(spec: spec, usesNetwork: { _ in true }, run: run)

  static func run(_ arguments: ParsedArguments, context: Context) async throws -> ExitCode {
    let services = try context.services()
    var service = try services.sync()
    // A newItem hook needs the new items in the report; without one none is held.
    service.keepNewItems = arguments[Options.exec] != nil || services.hooks.newItem != nil
    service.refresh = arguments[Options.refresh]
    let report: SyncReport
    do {
      report = try await service.run(
        wait: arguments[Options.wait], only: arguments[Options.account].map { [$0] })
    } catch StoreError.locked {
      throw SyncError.alreadyRunning
    }
    let failed = report.sources.filter { $0.status == .failed }
    let asked = report.sources.filter { $0.status != .skipped }
    if arguments[Options.json] {
      context.printer.json(SyncJSON.json(report))
    } else {
      let lines = SyncText.lines(report, now: context.timing.now())
      if !arguments[Options.quiet] {
        context.printer.lines(lines.map(\.line))
      } else {
        for (line, failed) in lines where failed { context.console.err(line + "\n") }
      }
    }
    // Hooks, once the store has what the sync pulled: a failing one is a warning, whatever the
    // sync's outcome (said even with --quiet: a hook is the user's own command).
    for warning in await runHooks(
      report, services: services, arguments: arguments, context: context)
    {
      context.warn(warning)
    }
    // A failing sync ends with one error line; warnings only come with success. Quiet, a run
    // whose failures are all sources left alone (said when they failed) says nothing: a cron
    // job mails once a failing source's back-off ends, not every run; its status is unchanged.
    guard failed.isEmpty else {
      let failure = SyncError.failed(failed.count, of: asked.count)
      if arguments[Options.quiet], !failed.contains(where: \.asked) { return failure.exitCode }
      throw failure
    }
    if !arguments[Options.quiet] {
      for warning in report.sources.flatMap(\.warnings) + report.warnings { context.warn(warning) }
    }
    return .success
  }

  /// The `newItem` hook (`--exec`, else `config.json`'s) once per new item that no ignore rule
  /// hides, with the ITEM JSON on standard input and `NEWS_ITEM_ID`, `NEWS_ITEM_TITLE`,
  /// `NEWS_ITEM_URL`, `NEWS_ITEM_SOURCE`; then the `afterSync` hook once, with the report's JSON.
  /// Returns the warnings of those that failed.
  private static func runHooks(
    _ report: SyncReport, services: NewsServices, arguments: ParsedArguments, context: Context
  ) async -> [String] {
    let hooks = services.hooks
    let newItem = arguments[Options.exec] ?? hooks.newItem
    guard newItem != nil || hooks.afterSync != nil else { return [] }
    let runner = services.hookRunner(environment: context.environment)
    var warnings: [String] = []
    if let command = newItem {
      warnings += await NewItemHook.run(
        report.sources.flatMap(\.newItems), command: command, services: services,
        context: context)
    }
    if let command = hooks.afterSync {
      let input = Data((SyncJSON.json(report).serialized(pretty: false) + "\n").utf8)
      warnings += await runner.run(
        command, [HookRunner.Run(label: "afterSync hook", input: input, variables: [:])])
    }
    return warnings
  }
}
