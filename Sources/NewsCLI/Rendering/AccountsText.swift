import FeedParsing
import Foundation
import NewsCore

/// `news accounts` and its actions as text (the JSON is ``AccountsJSON``'s): the user and the
/// server's address cleaned of terminal controls here.
enum AccountsText {
  static func tested(_ name: String, feeds: Int, roundTrip item: String?) -> String {
    "\(name): logged in, \(feeds.counted("feed")); "
      + (item.map { "item \(TerminalSanitizer.clean($0)) marked unread and read again" }
        ?? "no read item to test marks with")
  }

  static func removed(_ name: String, sources: Int) -> String {
    "removed: \(name) (\(sources.counted("source")) and their items)"
  }

  static func added(_ name: String, kind: Account.Kind, feeds: Int) -> String {
    "added: \(name) (\(kind.rawValue), \(feeds.counted("feed"))); "
      + "news sync --account \(name) brings its items"
  }

  /// One line an account: kind, user and server, feeds, last sync, marks waiting, bookmarks gone.
  static func list(_ rows: [AccountsJSON.Row]) -> [String] {
    guard !rows.isEmpty else {
      return [
        "No accounts (news accounts add <name> --greader|--fever|--miniflux|--nextcloud|--ttrss "
          + "<url> | --feedbin, --user <name>: news accounts add --help says what each needs)."
      ]
    }
    return rows.map { row in
      let (account, state) = (row.account, row.state)
      // Its feeds are known from `accounts add` on (from its first sync for an account added
      // by an earlier version): before, a count of none would be wrong.
      let feeds = state.feeds.count.counted("feed")
      let synced =
        state.lastSyncAt.map { "\(feeds), synced " + ISO8601.string(from: $0) }
        ?? ((state.feeds.isEmpty ? "" : feeds + ", ")
          + "not synced yet (news sync --account \(account.name))")
      return
        "\(account.name)  \(account.kind.rawValue)  \(TerminalSanitizer.clean(account.user)) at "
        + "\(TerminalSanitizer.clean(account.url.absoluteString))  " + synced
        + (row.pendingMarks > 0 ? ", \(row.pendingMarks.counted("mark")) to send" : "")
        + (row.goneBookmarks > 0
          ? ", \(row.goneBookmarks.counted("bookmark")) gone from the server (kept here)" : "")
    }
  }
}
