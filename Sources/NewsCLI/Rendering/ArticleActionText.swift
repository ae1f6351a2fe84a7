import FeedParsing
import NewsCore

/// What the commands that act on articles say (`read`, `unread`, `bookmark`, `send`, `open`,
/// `play`, `download`, the bulk selections), a line each, titles and links cleaned of terminal
/// controls here.
enum ArticleActionText {
  /// `read: <title>`, a line per article.
  static func confirm(_ verb: String, _ articles: [Article]) -> [String] {
    articles.map { "\(verb): \(TerminalSanitizer.clean($0.title))" }
  }

  static func markedAll(_ count: Int) -> String { "marked read: \(count.counted("article"))" }

  /// A mark kept for an article the store no longer holds.
  static func unreadGone(_ id: String) -> String {
    "unread: \(TerminalSanitizer.clean(id)) (no longer stored)"
  }

  /// What a `--where` or `--older-than` selection would change, or changed, of those matching:
  /// `marked read: 3 articles (of 5 matching)`, `bookmarked: 2 articles (of 2 matching)`.
  static func bulk(_ mark: BulkMark, count: Int, matching: Int, dryRun: Bool) -> String {
    let (done, would) =
      switch mark {
      case .read: ("marked read", "would mark read")
      case .unread: ("marked unread", "would mark unread")
      case .bookmark: ("bookmarked", "would bookmark")
      }
    let counted = "\(count.counted("article")) (of \(matching) matching)"
    return dryRun ? "\(would): \(counted); nothing changed (--dry-run)" : "\(done): \(counted)"
  }

  static func sent(to command: String, _ article: Article) -> String {
    "sent to \(command): \(TerminalSanitizer.clean(article.title))"
  }

  /// A link printed where there is no browser or player to open it.
  static func link(_ link: String) -> String { TerminalSanitizer.clean(link) }

  static let nothingToDownload = "Nothing new to download."

  /// Under a search's first page on a terminal.
  static func moreMatch(shown: Int) -> String {
    "\nThe newest \(shown) are shown; more match: --limit <n> shows more, --json every one."
  }
}
