import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The subscription lists other readers write: OPML 1.0/2.0 (nested outlines are folders, which
/// become tags) and newsboat's `urls` file (`url "tag" "~Title"`, `#` comments).
public enum SubscriptionFile {
  /// Why a file could not be read: names the line, or the element.
  public struct Failure: Error, Equatable {
    /// What is wrong, and where.
    public var detail: String
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
    for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !line.isEmpty, !line.hasPrefix("#") else { continue }
      let words = try newsboatWords(line, line: offset + 1)
      let first = words[0]
      if first.hasPrefix("query:") || first.hasPrefix("exec:") || first.hasPrefix("filter:") {
        skipped.append("line \(offset + 1): \(first.prefix { $0 != ":" }) feeds are newsboat's own")
        continue
      }
      guard let url = URL(string: first), ["http", "https"].contains(url.scheme?.lowercased()),
        url.host != nil
      else {
        throw Failure(detail: "line \(offset + 1): '\(first.prefix(200))' is not an http(s) URL")
      }
      var subscription = Subscription(url: url)
      for word in words.dropFirst() {
        if word.hasPrefix("~") {
          subscription.title = Optional(String(word.dropFirst())).nonEmpty
        } else if word != "!" {
          subscription.tags.append(word)
        }
      }
      subscriptions.append(subscription)
    }
    return (subscriptions, skipped)
  }

  /// A newsboat line's words: spaces separate, double quotes group (`"tag with space"`).
  private static func newsboatWords(_ line: String, line number: Int) throws(Failure) -> [String] {
    var words: [String] = []
    var current = ""
    var quoted = false
    var started = false
    for character in line {
      if character == "\"" {
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
    if quoted { throw Failure(detail: "line \(number): a quote is not closed") }
    if started { words.append(current) }
    return words
  }

  // MARK: OPML

  private static func opml(_ data: Data) throws(Failure) -> (
    subscriptions: [Subscription], skipped: [String]
  ) {
    if XMLFeedParser.declaresEntities(data) {
      throw Failure(detail: "the XML declares entities of its own, which OPML has no use for")
    }
    let reader = OPMLReader()
    let bytes: Data
    do {
      bytes = try XMLEncoding.utf8(data)
    } catch {
      throw Failure(detail: error.detail)
    }
    let parser = XMLParser(data: bytes)
    parser.shouldResolveExternalEntities = false
    parser.delegate = reader
    let parsed = parser.parse()
    if let problem = reader.problem { throw Failure(detail: problem) }
    guard reader.sawRoot else { throw Failure(detail: "not OPML: the root element is not <opml>") }
    guard parsed, reader.depth == 0 else {
      throw Failure(detail: "not well-formed XML (line \(parser.lineNumber))")
    }
    return (reader.subscriptions, reader.skipped)
  }

  private final class OPMLReader: NSObject, XMLParserDelegate {
    var subscriptions: [Subscription] = []
    var skipped: [String] = []
    var problem: String?
    var sawRoot = false
    var depth = 0
    /// The folders the current outline is in (`nil` for outlines that are feeds themselves).
    private var folders: [String?] = []

    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
      qualifiedName: String?, attributes: [String: String] = [:]
    ) {
      depth += 1
      if depth == 1 {
        sawRoot = name.lowercased() == "opml"
        if !sawRoot { parser.abortParsing() }
        return
      }
      guard name.lowercased() == "outline" else { return }
      let title = (attributes["title"] ?? attributes["text"]).map {
        $0.trimmingCharacters(in: .whitespacesAndNewlines)
      }.nonEmpty
      guard let link = attributes["xmlUrl"] ?? attributes["xmlurl"] else {
        folders.append(title)
        return
      }
      folders.append(nil)
      guard let url = URL(string: link.trimmingCharacters(in: .whitespaces)),
        ["http", "https"].contains(url.scheme?.lowercased()), url.host != nil
      else {
        problem =
          "line \(parser.lineNumber): <outline xmlUrl=\"\(link.prefix(200))\"> is not an http(s) URL"
        parser.abortParsing()
        return
      }
      subscriptions.append(
        Subscription(url: url, title: title, tags: folders.compactMap { $0 }))
    }

    func parser(
      _ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?
    ) {
      depth -= 1
      if name.lowercased() == "outline", !folders.isEmpty { folders.removeLast() }
    }
  }
}
