import FeedParsing
import Foundation
import NewsCore

/// `news feed` as text and as JSON.
struct FeedRenderer {
  var style: Style
  var width: Int
  var now: Date
  /// The ids of the items read: their titles are dim instead of bold.
  var read: Set<String> = []
  /// Unread items of each source (before `--unread` and `--limit`), for the headers.
  var unread: [String: Int] = [:]
  /// The ids of the items the killfile matches, shown by `--show-ignored`: marked `[ignored]`.
  var ignored: Set<String> = []
  /// Sources failing run after run: with nothing to show they get no block (the one line
  /// `N sources failing since …` says them).
  var stillFailing: Set<String> = []
  /// How many items of each source the killfile left out: said in its header.
  var ignoredCounts: [String: Int] = [:]
  /// What a source left empty by the options says instead of `no items`: `nothing new`
  /// (`--new`, `--since`), `nothing matches --where`, `nothing unread` (`--unread`).
  var emptyByOptions: String?
  /// How many items of each source are listed under a source before it: one whose items all
  /// are says so instead of `no items`.
  var listedAbove: [String: Int] = [:]

  /// Items grouped by source, each source with its status.
  ///
  /// - Parameter cutByLimit: sources whose items `--limit` cut (or left out altogether).
  func text(_ reports: [FeedSourceReport], cutByLimit: Set<String> = []) -> String {
    var all = ""
    text(
      reports, count: reports.count, items: reports.map(\.items.count).reduce(0, +),
      cutByLimit: cutByLimit
    ) { all += $0 }
    return all
  }

  /// The same, handed to `write` a source at a time: 10,000 items never sit in one string, and
  /// `reports`, `count` of them holding `items` items, may decode each as it is read
  /// (``FeedListResult/reports``).
  func text(
    _ reports: some Sequence<FeedSourceReport>, count: Int, items total: Int,
    cutByLimit: Set<String> = [], write: (String) -> Void
  ) {
    let unreadTotal = unread.values.reduce(0, +)
    var text =
      style.bold("Feed")
      + style.dim(
        " · \(total) item\(total == 1 ? "" : "s") from \(count) source\(count == 1 ? "" : "s") · \(unreadTotal) unread"
      ) + "\n"
    var number = 0
    let indent = "     "
    // Sources `--limit` left out altogether: the first few each get their block, the rest one
    // line (`feed --limit 20` at 10,000 sources lists 20 items, not 10,000 empty sources).
    var notShown = 0
    for report in reports {
      if report.items.isEmpty, report.status == .failed, stillFailing.contains(report.name) {
        continue
      }
      if report.items.isEmpty, cutByLimit.contains(report.name) {
        notShown += 1
        if notShown > SourceName.namedAtMost { continue }
      }
      write(text)
      text = ""
      var status = report.status.rawValue
      if report.next?.reason == .account, report.status == .cached {
        // An account's feed: as of its account's last sync.
        status =
          report.fetchedAt.map { "synced " + RelativeTime.describe($0, now: now) }
          ?? "not synced yet"
      } else if let fetchedAt = report.fetchedAt, report.status != .fresh {
        status += ", " + RelativeTime.describe(fetchedAt, now: now)
      }
      if cutByLimit.contains(report.name), !report.items.isEmpty { status += ", cut by --limit" }
      if let count = unread[report.name], count > 0 { status += ", \(count) unread" }
      let leftOut = ignoredCounts[report.name] ?? 0
      if leftOut > 0 { status += ", \(leftOut) ignored" }
      // The built-in letters read best as capitals; a feed's name as it was given (a feed
      // named `x` stays `x`).
      let name =
        SourceName.builtInFeeds.contains(report.name) ? report.name.uppercased() : report.name
      text += "\n" + style.bold("Source " + name) + style.dim(" (\(status))") + "\n"
      if report.items.isEmpty {
        let reason =
          cutByLimit.contains(report.name)
          ? "not shown (--limit)"
          : report.status == .failed
            ? "nothing to show"
            : leftOut > 0
              ? "every item ignored (--show-ignored shows them)"
              : emptyByOptions
                ?? ((listedAbove[report.name] ?? 0) > 0
                  ? "every item is listed above, under another source"
                  : report.url.scheme == "search"
                    ? "nothing stored matches its search" : "no items")
        text += indent + style.dim(reason) + "\n"
      }
      for item in report.items {
        number += 1
        // Appended piece by piece: an item of a list of 200,000 makes no string it can spare.
        let title = TextWrapper.shortened(
          !ignored.isEmpty && ignored.contains(item.id)
            ? "[ignored] " + clean(item.title) : clean(item.title),
          to: ArticleListRenderer.maximumTitle)
        let isRead = !read.isEmpty && read.contains(item.id)
        Self.appendLabel(number, to: &text)
        if TextWrapper.fits(title, width: width - indent.count) {
          text += isRead ? style.dim(title) : style.bold(title)
          text += "\n"
        } else {
          for (index, line) in TextWrapper.wrap(title, width: width - indent.count).enumerated() {
            if index > 0 { text += indent }
            text += isRead ? style.dim(line) : style.bold(line)
            text += "\n"
          }
        }
        if let description = item.description {
          let subtitle = clean(description)
          if !subtitle.isEmpty {
            let shortened = TextWrapper.shortened(
              subtitle, to: ArticleListRenderer.maximumDescription)
            for line in TextWrapper.wrap(shortened, width: width - indent.count) {
              text += indent
              text += line
              text += "\n"
            }
          }
        }
        if !item.alsoIn.isEmpty {
          text += indent
          text += style.dim("also in " + item.alsoIn.joined(separator: ", "))
          text += "\n"
        }
        if let url = item.url {
          text += indent
          text += style.cyan(clean(url))
          text += "\n"
        }
        for enclosure in item.enclosures where enclosure.isMedia {
          text += indent
          text += style.dim(EnclosureText.line(enclosure))
          text += "\n"
        }
        // The image's URL when there is one; no placeholder (that is the headlines list's).
        if let image = item.imageURL {
          text += indent
          text += style.cyan(clean(image))
          text += "\n"
        }
      }
    }
    if notShown > SourceName.namedAtMost {
      let more = notShown - SourceName.namedAtMost
      text += "\n" + style.dim("\(more.counted("more source")) not shown (--limit)") + "\n"
    }
    write(text)
  }

  /// `  7. `: an item's number, right-aligned in three columns, then a full stop and a space.
  static func appendLabel(_ number: Int, to text: inout String) {
    if number < 10 {
      text += "  "
    } else if number < 100 {
      text += " "
    }
    text += String(number)
    text += ". "
  }

  /// What `news feed` says when there is no source to show.
  static let noSource =
    "\nNo source to show: subscribe with 'news sources add <url>' (a feed, or a page "
    + "announcing one), or enable one with 'news sources set <name> --enable'."

  /// `{"schemaVersion","items":[ITEM…],"sources":[{"name","url","status","fetchedAt","expiresAt","error"}]}`.
  /// With `ignored` (`--show-ignored`), each ITEM says whether the killfile matches it.
  static func json(_ reports: [FeedSourceReport], read: Set<String>, ignored: Set<String>? = nil)
    -> String
  {
    var all = ""
    json(reports, sources: reports, read: read, ignored: ignored) { all += $0 }
    return all
  }

  /// The same document, pretty, handed to `write` a source at a time: the items of 1,000 feeds
  /// are never one tree of values nor one string. The items come from `reports` (which may
  /// decode each as it is read), the list of sources from `sources` (the same reports, their
  /// items left out).
  static func json(
    _ reports: some Sequence<FeedSourceReport>, sources: [FeedSourceReport], read: Set<String>,
    ignored: Set<String>? = nil, write: (String) -> Void
  ) {
    var pieces = JSONArrayPieces(
      head: "{\n  \"schemaVersion\": \(ArticleJSON.schemaVersion),\n  \"items\": [")
    for report in reports {
      for shown in report.items {
        pieces.appendObject {
          item(
            shown, read: read.contains(shown.id), ignored: ignored.map { $0.contains(shown.id) },
            into: &$0)
        }
      }
      write(pieces.take())
    }
    let sources = JSONValue.array(
      sources.map { report in
        .object([
          ("name", .string(report.name)),
          ("url", .string(report.url.withoutPassword.absoluteString)),
          ("status", .string(report.status.rawValue)),
          ("fetchedAt", .date(report.fetchedAt)),
          ("expiresAt", .date(report.expiresAt)),
          ("error", .string(report.errorSentence)),
        ])
      })
    // The head is still there when there was no source at all.
    pieces.close(then: ",\n  \"sources\": " + sources.serialized(prettyAt: 1) + "\n}\n")
    write(pieces.take())
  }

  /// ITEM: `{"id","source","sources","title","subtitle","imageUrl","url","publishedAt","author",
  /// "read","enclosures","provider","description","content","categories"}`; `sources` is `source` and every later source listing the same link. With
  /// `ignored` (`--show-ignored`), `"ignored"` follows.
  static func item(_ item: FeedItem, read: Bool, ignored: Bool? = nil) -> JSONValue {
    JSONMembers.object { self.item(item, read: read, ignored: ignored, into: &$0) }
  }

  /// ITEM's members added to `row`: the tree above, or straight into a document's bytes.
  static func item(
    _ item: FeedItem, read: Bool, ignored: Bool? = nil, into row: inout some JSONMemberSink
  ) {
    row.add("id", string: item.id)
    row.add("source", string: item.feed)
    row.add("sources", strings: [item.feed] + item.alsoIn)
    row.add("title", string: item.title)
    row.add("subtitle", string: item.description)
    row.add("imageUrl", string: item.imageURL)
    row.add("url", string: item.url)
    row.add("publishedAt", date: item.publishedAt)
    row.add("author", string: item.author)
    row.add("read", bool: read)
    row.add("enclosures", EnclosureText.json(item.enclosures))
    // ARTICLE's keys, with the same meaning (#47.2): a list entry has one shape everywhere.
    row.add("provider", string: item.feed)
    row.add("description", string: item.description)
    row.add("content", string: item.content)
    row.add("categories", strings: item.categories)
    if let ignored { row.add("ignored", bool: ignored) }
  }

  /// Items are plain text already: the JSON shapes are cleaned of HTML when decoded, web feeds
  /// when read (so that an Atom title about the `<blink>` tag keeps it).
  private func clean(_ text: String) -> String {
    TerminalSanitizer.clean(text)
  }
}
