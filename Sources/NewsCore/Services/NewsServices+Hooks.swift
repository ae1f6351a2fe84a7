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
        sleep: dependencies.timing.limit),
      passing: configFile?.hookEnvironment ?? [])
  }

  /// The items of `report` that a `newItem` hook runs for: those new in it, less those the
  /// ignore rules hide and those a hook already ran for.
  public func hookItems(_ report: SyncReport) -> (items: [FeedItem], warning: String?) {
    hookItems(report.sources.flatMap(\.newItems))
  }

  /// Of `items` (first stored by this run: a sync's, a feed's, browse's reload), those a
  /// `newItem` hook runs for: not hidden by an ignore rule, and claimed in the ledger (no other
  /// run ran it for them). The ledger unreadable: none, and a warning saying so.
  public func hookItems(_ items: [FeedItem]) -> (items: [FeedItem], warning: String?) {
    var filter = IgnoreFilter(
      configFile?.ignore ?? [], facts: QueryFacts(now: dependencies.timing.now()),
      timeZone: dependencies.timeZone)
    let wanted = items.filter { !filter.ignores($0.article) }
    guard !wanted.isEmpty else { return ([], nil) }
    do {
      let claimed = Set(
        try articleStore().claimHookRuns(wanted.map(\.id), at: dependencies.timing.now()))
      var seen = Set<String>()
      return (wanted.filter { claimed.contains($0.id) && seen.insert($0.id).inserted }, nil)
    } catch {
      return (
        [],
        "no newItem hook ran: the record of the items hooks ran for is unavailable ("
          + ((error as? any NewsError)?.message ?? "\(error)") + ")"
      )
    }
  }

  /// The items whose `newItem` runs a spent batch put off (``putOffHookRuns(_:)``), as stored:
  /// the next run that runs hooks runs them too. One no longer stored is dropped with them.
  public func owedHookItems() -> [FeedItem] {
    guard let store = try? articleStore(), let owed = try? store.owedHookRuns(), !owed.isEmpty
    else { return [] }
    return owed.compactMap { id in (try? store.article(id: id)).flatMap { $0 }.map(FeedItem.init) }
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
