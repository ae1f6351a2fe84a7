import FeedParsing
import Foundation
import NewsCore

/// `news sources` and its actions as text (the JSON is ``SourcesJSON``'s): every name, address
/// and error from a feed or a server cleaned of terminal controls here.
enum SourcesText {
  /// The table: the providers, then the sources, each with its details on a dimmed line.
  static func table(
    providers: [ProviderStatus], rows: [(FeedSource, FeedService.LastFetch)],
    failures: [String: FeedFailures.Failure], style: Style, now: Date
  ) -> String {
    var text = style.bold("Sources") + style.dim(" · \(providers.count + rows.count)") + "\n\n"
    let width = ((rows.map(\.0.name.count) + providers.map(\.name.count)).max() ?? 0) + 2
    // The details' indentation, made once for every row.
    let indent = String(repeating: " ", count: width)
    for provider in providers {
      var details = ["provider"]
      if let missing = provider.missing { details.append(missing) }
      if !provider.enabled { details.append("disabled") }
      details.append(
        provider.error.map { "store unreadable: " + TerminalSanitizer.clean($0) }
          ?? provider.fetchedAt.map { "fetched " + RelativeTime.describe($0, now: now) }
          ?? "never fetched")
      text += provider.name.padding(to: width)
      text += TerminalSanitizer.clean(provider.url.withoutPassword.absoluteString)
      text += "\n"
      text += indent
      text += style.dim(details.joined(separator: " · "))
      text += "\n"
    }
    for (source, last) in rows {
      // A saved search is never fetched: it is answered from the store every run.
      let fetched: String?
      if let error = last.error {
        fetched = "cache damaged: " + error
      } else if let date = last.fetchedAt {
        fetched =
          (source.account == nil ? "fetched " : "synced ") + RelativeTime.describe(date, now: now)
      } else {
        // An account's feed is synced, not fetched: one subscribed since the last sync too.
        fetched =
          source.search != nil ? nil : source.account == nil ? "never fetched" : "not synced yet"
      }
      var details = [source.account.map { "account \($0)" } ?? source.adapter.format]
      if let title = source.title { details.insert(title, at: 0) }
      if let maxItems = source.maxItems { details.append("at most " + maxItems.counted("item")) }
      if !source.tags.isEmpty {
        details.append("tags " + TerminalSanitizer.clean(source.tags.joined(separator: ", ")))
      }
      if !source.enabled { details.append("disabled") }
      if source.fullText { details.append("full text") }
      if source.hidden { details.append("hidden") }
      if let failure = failures[source.name] {
        let since = RelativeTime.describe(Date(timeIntervalSince1970: failure.since), now: now)
        details.append(
          "failing since \(since) (\(failure.failures.counted("run"))): "
            + TerminalSanitizer.clean(SourceMessage.withoutName(failure.error, of: source.name)))
      }
      let address =
        source.search.map { "search: " + $0 }
        ?? source.command.map { command in
          command.kind == .exec
            ? "exec: " + command.command
            : "filter: " + command.command + " " + source.url.withoutPassword.absoluteString
        } ?? source.url.withoutPassword.absoluteString
      if let fetched { details.append(fetched) }
      // A disabled source says "disabled" already, and is asked by no run.
      if last.next.reason != .disabled {
        details.append(TerminalSanitizer.clean(NextFetchText.describe(last.next, now: now)))
      }
      // Appended a piece at a time: one sum of the pieces made each of them again.
      text += source.name.padding(to: width)
      text += TerminalSanitizer.clean(address)
      text += "\n"
      text += indent
      text += style.dim(details.joined(separator: " · "))
      text += "\n"
    }
    return text
  }

  /// `news sources --failing`: each source failing run after run, since when, and why.
  static func failing(_ failures: [(key: String, value: FeedFailures.Failure)], now: Date)
    -> [String]
  {
    guard !failures.isEmpty else { return ["No source is failing."] }
    let width = (failures.map(\.key.count).max() ?? 0) + 2
    return failures.map { name, failure in
      let since = RelativeTime.describe(Date(timeIntervalSince1970: failure.since), now: now)
      let error = SourceMessage.withoutName(failure.error, of: name)
      return name.padding(to: width) + "failing since \(since): \(TerminalSanitizer.clean(error))"
    } + ["(news sources set <name> --disable stops asking one; a run that answers clears it)"]
  }

  /// A source removed (`unsubscribed` `nil`: it was not subscribed, only forgotten), and how
  /// many of its stored articles were forgotten (`--forget`).
  static func removed(_ name: String, unsubscribed: Bool?, forgotten: Int? = nil) -> String {
    var line =
      unsubscribed == nil
      ? "\(name): not subscribed"
      : "removed: \(name)" + (unsubscribed == true ? " (unsubscribed on its server)" : "")
    if let forgotten {
      line +=
        forgotten == 0
        ? "; no stored article to forget"
        : "; \(forgotten.counted("stored article")) forgotten (bookmarks stay)"
    }
    return line
  }

  static func set(_ name: String) -> String { "set: \(name)" }

  /// `add --tags …` of a feed subscribed already: nothing was written.
  static func settingsLeft(_ name: String) -> String {
    "its settings are left as they are: news sources set \(name) changes them"
  }

  /// A source made by a command, added (nothing run yet).
  static func addedCommand(_ name: String, _ address: String) -> String {
    "added: \(name) (\(TerminalSanitizer.clean(address))); news feed --source \(name) runs it"
  }

  static func addedSearch(_ name: String, words: String) -> String {
    "added: \(name) (saved search: \(TerminalSanitizer.clean(words)))"
  }

  /// A feed subscribed to already, as the source `name`.
  static func alreadySubscribed(_ name: String, _ url: URL) -> String {
    "already subscribed: \(name) (\(TerminalSanitizer.clean(url.withoutPassword.absoluteString)))"
  }

  /// A feed subscribed to (or already), with its title and items, and what the newItem hook did.
  static func added(_ added: SubscriptionService.Added, hookSkipped: Int?) -> [String] {
    let link = TerminalSanitizer.clean(added.url.withoutPassword.absoluteString)
    if added.existed { return [alreadySubscribed(added.name, added.url)] }
    let title = added.title.map { " · " + TerminalSanitizer.clean($0) } ?? ""
    var lines = ["added: \(added.name) (\(link))\(title) · \(added.itemCount.counted("item"))"]
    if let moved = added.movedFrom {
      lines.append(
        "\(TerminalSanitizer.clean(moved.withoutPassword.absoluteString)) moved permanently: subscribed where it went"
      )
    }
    if !added.alsoAnnounced.isEmpty {
      // `Comments (https://…/comments/feed)`: the page's title for each, where it gives one.
      let others = added.alsoAnnounced.map { feed in
        let link = TerminalSanitizer.clean(feed.url.withoutPassword.absoluteString)
        return feed.title.map { "\(TerminalSanitizer.clean($0)) (\(link))" } ?? link
      }
      lines.append(
        "the page announces \(others.count + 1) feeds; the first was taken, the others are "
          + others.joined(separator: ", ") + " (news sources add <url> subscribes to one)")
    }
    if let hookSkipped {
      lines.append(
        "the newItem hook ran for none of its \(hookSkipped.counted("item")) "
          + "(a new subscription is no news; --hooks runs it)")
    }
    return lines
  }

  /// What a page read by selectors gives (`sources add … --items … --dry-run`): each item's
  /// title, link and date, then what would be added.
  static func pagePreview(_ page: SubscriptionService.AddedPage, timeZone: TimeZone) -> [String] {
    var lines: [String] = []
    let format = DateFormatter()
    format.locale = Locale(identifier: "en_US_POSIX")
    format.timeZone = timeZone
    format.dateFormat = "yyyy-MM-dd HH:mm"
    for (index, item) in page.items.enumerated() {
      let date =
        item.publishedAt.map { format.string(from: $0) } ?? "no date: dated when first seen"
      lines.append("\(index + 1). \(TerminalSanitizer.clean(item.title))")
      lines.append("   \(TerminalSanitizer.clean(item.url ?? "(no link)")) · \(date)")
      if let text = item.description {
        lines.append("   " + TerminalSanitizer.clean(String(text.prefix(100))))
      }
    }
    let link = TerminalSanitizer.clean(page.added.url.withoutPassword.absoluteString)
    lines.append(
      "would add: \(page.added.name) (\(link)) · \(page.items.count.counted("item")); "
        + "nothing changed (--dry-run)")
    return lines
  }

  static func subscribed(on account: String, _ url: URL) -> String {
    "subscribed on \(account): \(TerminalSanitizer.clean(url.withoutPassword.absoluteString))"
  }

  /// What comes next: the new sources, once the server lists them, and their items with the
  /// account's next sync.
  static func syncBrings(_ account: String, sources: [String] = []) -> String {
    switch sources.count {
    case 0: "news sync --account \(account) brings the items"
    case 1: "source \(sources[0]); news sync --account \(account) brings its items"
    default:
      "\(sources.count) sources (\(sources.prefix(3).joined(separator: ", "))"
        + (sources.count > 3 ? ", …" : "") + "); news sync --account \(account) brings their items"
    }
  }

  /// What an import added, one line a feed, then the count.
  static func imported(_ added: [(String, URL)], existing: Int) -> [String] {
    added.map { name, link in "added: \(name) (\(TerminalSanitizer.clean(link.absoluteString)))" }
      + [
        "imported \(added.count.counted("feed"))"
          + (existing > 0 ? ", \(existing) subscribed already" : "")
      ]
  }
}
