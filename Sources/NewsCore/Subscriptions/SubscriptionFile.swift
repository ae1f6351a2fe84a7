import FeedParsing
import Foundation

/// The subscription lists other readers write: OPML 1.0/2.0 (nested outlines are folders, which
/// become tags) and newsboat's `urls` file (`url "tag" "~Title"`, `#` comments).
public enum SubscriptionFile {
  /// The largest file `news sources import` reads: an OPML file of 10,000 feeds is about 2 MB.
  public static let maximumSize = 16 << 20

  /// The bytes of the file at `path` (relative to `directory`), refused unread when larger than
  /// ``maximumSize``.
  ///
  /// - Throws: ``SubscriptionError/unreadableFile(path:reason:)`` (exit 74) or, when too large,
  ///   ``SubscriptionError/badImport(path:detail:)`` (exit 65).
  public static func read(_ path: String, relativeTo directory: URL) throws -> Data {
    let url = URL(fileURLWithPath: path, relativeTo: directory)
    guard let handle = FileHandle(forReadingAtPath: url.path) else {
      throw SubscriptionError.unreadableFile(path: path, reason: "no such file, or not readable")
    }
    defer { try? handle.close() }
    // One byte past the cap is read at most: a larger file (or a device) is never read whole.
    let data: Data
    do {
      data = try handle.read(upToCount: maximumSize + 1) ?? Data()
    } catch {
      throw SubscriptionError.unreadableFile(path: path, reason: "\(error.localizedDescription)")
    }
    guard data.count <= maximumSize else {
      throw SubscriptionError.badImport(
        path: path,
        detail: "it is larger than \(maximumSize >> 20) MiB: not a list of subscriptions")
    }
    return data
  }

  /// Why a file could not be read: names the line, or the element.
  public struct Failure: Error, Equatable {
    /// What is wrong, and where.
    public var detail: String
    /// Whether the file is a feed itself (`<rss>`, `<feed>`, `<rdf:RDF>`), not a list of them.
    public var isFeed = false
  }

  /// The subscriptions in `data`: OPML when it starts with `<`, else a newsboat `urls` file.
  ///
  /// - Returns: the subscriptions, and what was skipped (one line each, for warnings).
  public static func parse(_ data: Data) throws(Failure) -> (
    subscriptions: [Subscription], skipped: [String]
  ) {
    let start = data.drop { [0x20, 0x0A, 0x0D, 0x09, 0xEF, 0xBB, 0xBF].contains($0) }
    if start.first == UInt8(ascii: "<") { return try opml(data) }
    return try urls(data)
  }

  // MARK: newsboat

  private static func urls(_ data: Data) throws(Failure) -> (
    subscriptions: [Subscription], skipped: [String]
  ) {
    guard let text = String(data: data, encoding: .utf8) else {
      throw Failure(detail: "not UTF-8 text (neither OPML nor a newsboat urls file)")
    }
    var subscriptions: [Subscription] = []
    var skipped: [String] = []
    var notURLs: [String] = []
    for (offset, rawLine) in text.textFileLines.enumerated() {
      let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !line.isEmpty, !line.hasPrefix("#") else { continue }
      let words = try newsboatWords(line, line: offset + 1)
      let first = words[0]
      if first.hasPrefix("query:") || first.hasPrefix("exec:") || first.hasPrefix("filter:") {
        skipped.append("line \(offset + 1): \(first.prefix { $0 != ":" }) feeds are newsboat's own")
        continue
      }
      guard let url = URL.feed(first) else {
        notURLs.append("line \(offset + 1): '\(first.prefix(200))' is not an http(s) URL")
        continue
      }
      var subscription = Subscription(url: url)
      let attributes = NewsboatAttributes(words.dropFirst())
      subscription.title = Optional(attributes.title ?? "").nonEmpty
      subscription.tags = attributes.tags
      subscriptions.append(subscription)
    }
    return try kept(subscriptions, skipped: skipped, notURLs: notURLs)
  }

  /// OPML 2.0's `category`: comma-separated, each a tag or a `/`-delimited path
  /// (`/Boston/Weather` is the tag `Boston/Weather`). What `sources export` writes its tags as.
  private static func categories(_ attribute: String?) -> [String] {
    (attribute ?? "").split(separator: ",").compactMap { category in
      let tag = category.trimmingCharacters(in: CharacterSet(charactersIn: "/").union(.whitespaces))
      return tag.isEmpty ? nil : tag
    }
  }

  /// What a file gave: a line that is no URL is skipped, said among the others; a file that
  /// gives nothing but such lines is not a file of feeds (its first is the error).
  private static func kept(
    _ subscriptions: [Subscription], skipped: [String], notURLs: [String]
  ) throws(Failure) -> (subscriptions: [Subscription], skipped: [String]) {
    if subscriptions.isEmpty, let first = notURLs.first { throw Failure(detail: first) }
    return (subscriptions, skipped + notURLs)
  }

  /// A newsboat line's words: spaces separate, double quotes group (`"tag with space"`), and
  /// inside quotes `\"` is a quote and `\\` a backslash (a filter's strings: `"title =
  /// \"x\""`); any other backslash stays as written (a regular expression's `\.`). A word that
  /// starts with `#` outside quotes begins a comment, which runs to the end of the line, as in
  /// newsboat (`https://a.example/feed tech # why I read it`); a `#` within a word (a URL's
  /// fragment) is part of it.
  static func newsboatWords(_ line: String, line number: Int) throws(Failure) -> [String] {
    var words: [String] = []
    var current = ""
    var quoted = false
    var started = false
    var escaped = false
    for character in line {
      if character == "#", !started, !quoted {
        break
      } else if escaped {
        if character != "\"", character != "\\" { current.append("\\") }
        current.append(character)
        escaped = false
      } else if character == "\\", quoted {
        escaped = true
      } else if character == "\"" {
        quoted.toggle()
        started = true
      } else if character.isWhitespace, !quoted {
        if started { words.append(current) }
        current = ""
        started = false
      } else {
        current.append(character)
        started = true
      }
    }
    if escaped { current.append("\\") }
    if quoted { throw Failure(detail: "line \(number): a quote is not closed") }
    if started { words.append(current) }
    return words
  }

  /// What the words after a newsboat line's URL say, read as newsboat reads them: the first
  /// word that starts with `~` is the feed's title, any word that starts with `!` hides the feed
  /// (`"!"`, `"!hidden"`), and neither kind is a tag.
  struct NewsboatAttributes: Equatable {
    var title: String?
    var tags: [String] = []
    var hidden = false

    init<Words: Sequence<String>>(_ words: Words) {
      for word in words {
        if word.hasPrefix("~") {
          if title == nil { title = String(word.dropFirst()) }
        } else if word.hasPrefix("!") {
          hidden = true
        } else {
          tags.append(word)
        }
      }
    }
  }

  // MARK: OPML

  /// Read with the feed tokenizer: any charset, HTML entities known, no entity a document
  /// declares ever expanded.
  private static func opml(_ data: Data) throws(Failure) -> (
    subscriptions: [Subscription], skipped: [String]
  ) {
    var tokenizer = XMLTokenizer(Array(FeedCharset.decode(data).utf8))
    var subscriptions: [Subscription] = []
    var notURLs: [String] = []
    var open: [String] = []
    // The folders the current outline is in (`nil` for outlines that are feeds themselves).
    var folders: [String?] = []
    var sawRoot = false
    while true {
      let offset = tokenizer.offset
      guard let token = tokenizer.next() else { break }
      switch token {
      case .start(let tag):
        let name = tag.name.lowercased()
        if !sawRoot {
          if FeedDocumentParser.isFeedRoot(name) {
            throw Failure(detail: "it is a feed (<\(name)>), not a list of feeds", isFeed: true)
          }
          guard name == "opml" else {
            throw Failure(detail: "not OPML: the root element is <\(name)>, not <opml>")
          }
          sawRoot = true
        }
        if !tag.selfClosing { open.append(name) }
        guard name == "outline" else { continue }
        let title = (tag.attribute("title") ?? tag.attribute("text")).map {
          $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }.nonEmpty
        guard let link = tag.attribute("xmlurl") else {
          if !tag.selfClosing { folders.append(title) }
          continue
        }
        if !tag.selfClosing { folders.append(nil) }
        guard let url = URL.feed(link) else {
          notURLs.append(
            "line \(tokenizer.line(at: offset)): <outline xmlUrl=\"\(link.prefix(200))\"> is not an "
              + "http(s) URL")
          continue
        }
        var tags = folders.compactMap { $0 }
        for tag in categories(tag.attribute("category")) where !tags.contains(tag) {
          tags.append(tag)
        }
        subscriptions.append(
          Subscription(
            url: url, title: title, tags: tags,
            site: tag.attribute("htmlurl").flatMap { URL.web($0.trimmingWhitespace()) }))
      case .end(let written):
        let name = written.lowercased()
        guard let position = open.lastIndex(of: name) else { continue }
        for closed in open[position...] where closed == "outline" && !folders.isEmpty {
          folders.removeLast()
        }
        open.removeSubrange(position...)
      case .text, .cdata:
        continue
      }
    }
    guard sawRoot else { throw Failure(detail: "not OPML: the root element is not <opml>") }
    guard open.isEmpty else {
      throw Failure(
        detail:
          "not well-formed XML (line \(tokenizer.line(at: tokenizer.offset))): <\(open[0])> is not closed"
      )
    }
    return try kept(subscriptions, skipped: [], notURLs: notURLs)
  }
}
