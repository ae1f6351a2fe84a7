extension NewsServices {
  /// The hook commands of `config.json` (none without one).
  public var hooks: FeedConfigFile.Hooks { configFile?.hooks ?? FeedConfigFile.Hooks() }

  /// Runs hooks with what the allow-list and `"hookEnv"` let through of the program's
  /// environment, each within `NEWS_HOOK_TIMEOUT`.
  public func hookRunner(environment: [String: String]) -> HookRunner {
    HookRunner(
      environment: environment,
      deadline: Deadline(
        configuration.hookTimeout, variable: "NEWS_HOOK_TIMEOUT",
        timing: dependencies.timing),
      passing: configFile?.hookEnvironment ?? [])
  }

  /// The items of `report` that a `newItem` hook runs for: those new in it, less those the
  /// ignore rules hide and those a hook already ran for.
  public func hookItems(_ report: SyncReport) -> (items: [FeedItem], warning: String?) {
    hookItems(report.sources.flatMap(\.newItems))
  }

  /// The items a `newItem` hook runs for now: those an earlier batch put off (as stored; one
  /// no longer stored is dropped), then those of `items` (first stored by this run: a sync's,
  /// a feed's, browse's reload) that no ignore rule hides, each claimed in the ledger in one
  /// write (no other run runs it). The ledger unreadable: none, and a warning saying so.
  public func hookItems(_ items: [FeedItem]) -> (items: [FeedItem], warning: String?) {
    var filter = IgnoreFilter(
      configFile?.ignore ?? [], facts: QueryFacts(now: dependencies.timing.now()),
      timeZone: dependencies.timeZone)
    let wanted = items.filter { !filter.ignores($0.article) }
    do {
      let store = try articleStore()
      let claimed = try store.claimHookRuns(wanted.map(\.id), at: dependencies.timing.now())
      let given = Dictionary(wanted.map { ($0.id, $0) }) { first, _ in first }
      var seen = Set<String>()
      return (
        claimed.compactMap { id in
          guard seen.insert(id).inserted else { return nil }
          return given[id] ?? (try? store.article(id: id)).flatMap { $0 }.map(FeedItem.init)
        }, nil
      )
    } catch {
      return (
        [],
        "no newItem hook ran: the record of the items hooks ran for is unavailable ("
          + ((error as? any NewsError)?.message ?? "\(error)") + ")"
      )
    }
  }

  /// Puts the `newItem` runs of `ids` off to the next run (their batch's time was spent); a
  /// warning when the ledger cannot take them.
  public func putOffHookRuns(_ ids: [String]) -> String? {
    do {
      try articleStore().putOffHookRuns(ids, at: dependencies.timing.now())
      return nil
    } catch {
      return "the newItem runs not started could not be kept for the next sync ("
        + ((error as? any NewsError)?.message ?? "\(error)") + ")"
    }
  }
}
