import Foundation
import NewsCore

/// The `newItem` hook, run by whichever command first stores an item (`sync`, `feed`, browse's
/// reloads; `sources add --hooks`): once an item, the ledger in the store (``NewsServices/
/// hookItems(_:)``) making sure no other run runs it again.
enum NewItemHook {
  /// Runs `command` (the configured `newItem` hook when `nil`) once for each of `items` that no
  /// ignore rule hides and no hook ran for; returns the warnings (a failing hook, a ledger that
  /// cannot be read).
  static func run(
    _ items: [FeedItem], command: String? = nil, services: NewsServices, context: Context
  ) async -> [String] {
    guard let command = command ?? services.hooks.newItem, !items.isEmpty else { return [] }
    let (claimed, warning) = services.hookItems(items)
    let runs = claimed.map { item in
      HookRunner.Run(
        label: "newItem hook for \(item.id)",
        input: Data((FeedRenderer.item(item, read: false).serialized(pretty: false) + "\n").utf8),
        variables: [
          "NEWS_ITEM_ID": item.id, "NEWS_ITEM_TITLE": item.title,
          "NEWS_ITEM_URL": item.url ?? "", "NEWS_ITEM_SOURCE": item.source,
        ])
    }
    let runner = services.hookRunner(environment: context.environment)
    return (warning.map { [$0] } ?? []) + (runs.isEmpty ? [] : await runner.run(command, runs))
  }
}
