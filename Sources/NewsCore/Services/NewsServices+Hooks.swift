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
  /// ignore rules hide.
  public func hookItems(_ report: SyncReport) -> [FeedItem] {
    var filter = IgnoreFilter(configFile?.ignore ?? [])
    return report.sources.flatMap(\.newItems).filter { !filter.ignores($0.article) }
  }
}
