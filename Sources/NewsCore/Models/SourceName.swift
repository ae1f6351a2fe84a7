import FeedParsing
import Foundation

/// Every name the program gives a source or a list itself, and the rule a name follows, in one
/// place: scripts see these names in `--json` (`provider`, `source`), in ids (`bbc-…`) and in
/// `--from`, and a source the user declares may not take one of them.
public enum SourceName {
  /// newsapi.org's headlines and searches.
  public static let newsAPI = "newsapi"
  /// BBC-style headlines.
  public static let bbc = "bbc"
  /// The articles API.
  public static let articles = "articles"

  /// The feed's built-in JSON sources A, B and C, which `config.json` may change but need not
  /// declare.
  public static let feedA = "a"
  /// Built-in source B.
  public static let feedB = "b"
  /// Built-in source C.
  public static let feedC = "c"
  /// The built-in feed sources, in order.
  public static let builtInFeeds = [feedA, feedB, feedC]
  /// The built-in providers of `headlines`: listed by `news sources`, disabled and enabled again
  /// with `news sources set <name> --disable` like a source.
  public static let providers = [newsAPI, articles, bbc]

  /// The feed as a list (`news show 3` after `news feed`).
  public static let feed = "feed"
  /// Search results (local and newsapi.org's).
  public static let search = "search"
  /// The bookmarked articles.
  public static let bookmarks = "bookmarks"
  /// An article opened by its URL (`news show https://…`).
  public static let url = "url"
  /// The row of `news sync`'s report for the accounts as a whole, when they cannot be read.
  public static let accounts = "accounts"

  /// What a source is called when nothing better can be made of its feed (a list's name, so the
  /// source gets `feed-2`).
  public static let untitled = feed

  /// Names a source may not take: the built-in providers' and the lists', so that an id or a
  /// `--from` always means one thing.
  public static let reserved: Set<String> = [newsAPI, bbc, articles, feed, search, bookmarks, url]

  /// Whether `name` may name a source: 1 to 64 lower-case ASCII letters, digits or `-`.
  public static func isValid(_ name: String) -> Bool {
    !name.isEmpty && name.utf8.count <= 64
      && name.unicodeScalars.allSatisfy { isNameCharacter($0) || $0 == "-" }
  }

  /// `Le Monde.fr : À la une` → `le-monde-fr-a-la-une`: folded to lower-case ASCII letters and
  /// digits, `-` between words, at most `maxLength` characters; empty when nothing is left.
  public static func slug(_ text: String, maxLength: Int) -> String {
    let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
    var slug = ""
    for scalar in folded.unicodeScalars {
      if isNameCharacter(scalar) {
        slug.unicodeScalars.append(scalar)
      } else if !slug.isEmpty, slug.last != "-" {
        slug += "-"
      }
    }
    slug = String(slug.prefix(maxLength))
    while slug.last == "-" { slug.removeLast() }
    return slug
  }

  /// How many sources a line or a list names before the rest are summed up in one line (an
  /// unknown source's error, `feed`'s failures and what `--limit` left out, `sync`'s text): at
  /// 10,000 sources, a line a reader can use.
  public static let namedAtMost = 10

  /// What an error about the unknown source `name` says of the sources there are: all of them
  /// when few (`the sources are a, b, c`), else the ten nearest `name` and how many there are in
  /// all, so that a typo among 10,000 sources is a line a reader can use, not 150 KB of names.
  public static func listing(_ names: [String], near name: String, limit: Int = namedAtMost)
    -> String
  {
    guard names.count > limit else { return "the sources are " + names.joined(separator: ", ") }
    let typed = name.lowercased()
    let nearest = names.enumerated()
      .map {
        (
          name: $0.element, distance: EditDistance.between(typed, $0.element.lowercased()),
          order: $0.offset
        )
      }
      .sorted { ($0.distance, $0.order) < ($1.distance, $1.order) }
      .prefix(limit).map(\.name)
    return "the \(limit) nearest of \(names.count.counted("source")) are "
      + nearest.joined(separator: ", ")
  }

  private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
  }
}
