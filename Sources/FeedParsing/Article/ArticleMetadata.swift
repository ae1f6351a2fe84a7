import Foundation

/// What a page says about its article outside its text: `<meta>` (Open Graph, Twitter,
/// `author`, `article:published_time`, Dublin Core), JSON-LD (`NewsArticle`, `BlogPosting`… and
/// `@graph`s of them), `<title>`, `<base>`.
struct ArticleMetadata {
  var title: String?
  var byline: String?
  var siteName: String?
  var excerpt: String?
  var imageURL: String?
  var publishedAt: Date?
  /// The body JSON-LD carries, when it does: a fallback when the page's markup defeats scoring.
  var body: String?
  /// The URL relative links resolve against (`<base href>`, else the page's).
  var base: URL?

  /// The JSON-LD types that are an article.
  static let articleTypes: Set<String> = [
    "article", "newsarticle", "blogposting", "reportagenewsarticle", "analysisnewsarticle",
    "opinionnewsarticle", "techarticle", "scholarlyarticle", "report", "socialmediaposting",
    "liveblogposting", "backgroundnewsarticle", "reviewnewsarticle", "webpage", "medicalwebpage",
  ]

  init(_ root: HTMLElement, url: URL?) {
    self.init(root, elements: root.descendants, url: url)
  }

  /// The metadata of the page whose elements are `elements` (its root's descendants).
  init(_ root: HTMLElement, elements: [HTMLElement], url: URL?) {
    var meta: [String: String] = [:]
    var documentTitle: String?
    base = url
    var jsonLD: [[String: Any]] = []
    for element in elements {
      switch element.name {
      case "meta":
        guard let content = element["content"]?.trimmingCharacters(in: .whitespacesAndNewlines),
          !content.isEmpty
        else { break }
        // `property` may name several (`og:title twitter:title`), each standing for the
        // content, as Readability reads them.
        let keys =
          element["property"].map { $0.lowercased().split(whereSeparator: \.isWhitespace) }
          ?? [Substring((element["name"] ?? element["itemprop"] ?? "").lowercased())]
        // The last of a name wins, as in Readability (a page that says `og:title` twice
        // corrects itself the second time).
        for key in keys where !key.isEmpty { meta[String(key)] = content }
      case "title" where documentTitle == nil:
        documentTitle = element.text
      case "base":
        if let href = element["href"],
          let resolved = URL(string: FeedLinks.resolve(href, against: url))
        {
          base = resolved
        }
      case "script" where (element["type"] ?? "").lowercased().contains("ld+json"):
        let text = element.children.compactMap {
          if case .text(let text) = $0 { text } else { nil }
        }.joined()
        if let object = try? JSONSerialization.jsonObject(
          with: Data(text.utf8), options: [.fragmentsAllowed])
        {
          jsonLD += Self.objects(in: object)
        }
      default:
        break
      }
    }
    let article =
      jsonLD.first { object in
        Self.types(of: object).contains {
          Self.articleTypes.contains($0) && $0 != "webpage" && $0 != "medicalwebpage"
        }
      } ?? jsonLD.first { Self.types(of: $0).contains { Self.articleTypes.contains($0) } }
    func clean(_ text: String?) -> String? {
      guard let text else { return nil }
      let line = HTMLText.plain(text).split(whereSeparator: \.isWhitespace).joined(separator: " ")
      return line.isEmpty ? nil : line
    }
    // Readability's order of sources for each field (JSON-LD first, then `<meta>`), with the
    // keys it does not read after its own. Dublin Core is read as `dc:` or `dc.` alike.
    func first(_ keys: [String]) -> String? {
      keys.lazy.compactMap { key in
        clean(meta[key] ?? meta[key.replacingOccurrences(of: ":", with: ".")])
      }
      .first
    }
    siteName =
      clean(((article?["publisher"] as? [String: Any])?["name"]) as? String)
      ?? first(["og:site_name", "application-name"])
    // The headline as the page declares it, kept as declared: JSON-LD's `name` or `headline`
    // (``jsonLDTitle(name:headline:pageTitle:)``), then the `<meta>` titles in Readability's
    // order. Only without one, the `<title>` as Readability cuts it
    // (``headline(ofTitle:headings:)``).
    let headings = elements.filter { $0.name == "h1" || $0.name == "h2" }
    let declared =
      Self.jsonLDTitle(
        name: clean(article?["name"] as? String), headline: clean(article?["headline"] as? String),
        pageTitle: { Self.headline(ofTitle: documentTitle, headings: headings) })
      ?? first([
        "dc:title", "dcterm:title", "og:title", "weibo:article:title", "weibo:webpage:title",
        "title", "twitter:title", "parsely-title", "citation_title",
      ])
    title = declared ?? Self.headline(ofTitle: documentTitle, headings: headings)
    byline =
      clean(Self.names(article?["author"]).joined(separator: ", "))
      ?? first(["dc:creator", "dcterm:creator", "author", "parsely-author"]).flatMap {
        $0.hasPrefix("http") ? nil : $0
      }
      ?? clean(meta["article:author"]).flatMap { $0.hasPrefix("http") ? nil : $0 }
      ?? first(["citation_author", "sailthru.author"])
    excerpt =
      clean(article?["description"] as? String)
      ?? first([
        "dc:description", "dcterm:description", "og:description", "weibo:article:description",
        "weibo:webpage:description", "description", "twitter:description",
      ])
    let images = Self.urls(article?["image"])
    let imageKeys = ["og:image", "og:image:url", "twitter:image", "twitter:image:src"]
    let image = imageKeys.lazy.compactMap { meta[$0] }.first ?? images.first
    imageURL = image.map { FeedLinks.resolve($0, against: base) }
    let dateKeys = [
      "article:published_time", "parsely-pub-date", "og:published_time", "datepublished",
      "pubdate", "publishdate", "dc.date.issued", "dc.date", "date", "sailthru.date",
      "citation_publication_date",
    ]
    var published = article?["datePublished"] as? String
    if published == nil { published = dateKeys.lazy.compactMap { meta[$0] }.first }
    if published == nil { published = article?["dateCreated"] as? String }
    publishedAt = published.flatMap { FeedDate.parse($0) }
    body = (article?["articleBody"] as? String).flatMap { $0.isEmpty ? nil : $0 }
  }

  /// The title JSON-LD gives, as Readability takes it: its `name`, or its `headline` when there
  /// is no name, or when the headline is the page's `<title>` (by Readability's word
  /// similarity, above 0.75) and the name is not. A site may put its own name in `name`; a
  /// Wikipedia article puts the article's title there, and a description in `headline`. A name
  /// that is an identifier (one word holding a digit, `d-161500790`) is no title (Readability
  /// takes it).
  static func jsonLDTitle(name: String?, headline: String?, pageTitle: () -> String?)
    -> String?
  {
    guard let name, let headline, name != headline else { return name ?? headline }
    if !name.contains(" "), name.contains(where: \.isNumber) { return headline }
    let title = pageTitle() ?? ""
    let headlineMatches = ArticleExtractor.textSimilarity(headline, title) > 0.75
    let nameMatches = ArticleExtractor.textSimilarity(name, title) > 0.75
    return headlineMatches && !nameMatches ? headline : name
  }

  /// Every object of a JSON-LD value: the value itself, the items of an array, a `@graph`'s.
  static func objects(in value: Any) -> [[String: Any]] {
    if let array = value as? [Any] { return array.flatMap(objects) }
    guard let object = value as? [String: Any] else { return [] }
    var found = [object]
    if let graph = object["@graph"] { found += objects(in: graph) }
    if let main = object["mainEntity"] { found += objects(in: main) }
    return found
  }

  static func types(of object: [String: Any]) -> [String] {
    if let type = object["@type"] as? String { return [type.lowercased()] }
    return (object["@type"] as? [Any])?.compactMap { ($0 as? String)?.lowercased() } ?? []
  }

  /// Names of a JSON-LD `author`: a string, an object's `name`, or a list of them.
  static func names(_ value: Any?) -> [String] {
    switch value {
    case let text as String: return [text]
    case let object as [String: Any]: return (object["name"] as? String).map { [$0] } ?? []
    case let list as [Any]: return list.flatMap { names($0) }
    default: return []
    }
  }

  /// URLs of a JSON-LD `image`: a string, an object's `url`, or a list of them.
  static func urls(_ value: Any?) -> [String] {
    switch value {
    case let text as String: return [text]
    case let object as [String: Any]: return (object["url"] as? String).map { [$0] } ?? []
    case let list as [Any]: return list.flatMap { urls($0) }
    default: return []
    }
  }

  /// Separators of a `<title>`'s parts, as Readability reads them (each between spaces).
  static let titleSeparators: Set<Character> = ["|", "-", "\\", "/", ">", "»"]
  /// The separators that say the parts go from broad to narrow (`Birds » Swallows`).
  static let hierarchicalSeparators: Set<Character> = ["\\", "/", ">", "»"]

  /// Readability's `_getArticleTitle`, for a page that declares no headline: the `<title>` cut
  /// at its last separator (`Story - Site`; the part after the first one when fewer than three
  /// words would be left), or after its colon (`Site: Story`, unless an `h1` or `h2` is the
  /// whole title); a title shorter than 15 characters or longer than 150 is the page's only
  /// `h1`. What is left of four words or fewer is the whole title again, but where a
  /// hierarchical separator took one word away.
  static func headline(ofTitle title: String?, headings: [HTMLElement]) -> String? {
    guard let original = title?.trimmingCharacters(in: .whitespacesAndNewlines),
      !original.isEmpty
    else { return nil }
    let characters = Array(original)
    // The places of ` X ` with X a separator, in order.
    let separators = characters.indices.dropFirst().dropLast().filter {
      characters[$0 - 1] == " " && characters[$0 + 1] == " "
        && titleSeparators.contains(characters[$0])
    }
    var hierarchical = false
    var headline = original
    if let last = separators.last {
      hierarchical = separators.contains { hierarchicalSeparators.contains(characters[$0]) }
      headline = String(characters[..<(last - 1)])
      if jsWordCount(headline) < 3 {
        // Everything up to the first separator character, wherever it stands, goes.
        let first = characters.firstIndex { titleSeparators.contains($0) } ?? -1
        headline = String(characters[(first + 1)...])
      }
    } else if original.contains(": ") {
      // Only a heading no longer than the title, and of few nodes, is read: a page of nested
      // headings stays linear.
      let length = original.utf8.count
      let whole = headings.contains {
        $0.length <= length
          && ArticleExtractor.shortText(of: $0, limit: 4 * length + 64)?
            .trimmingCharacters(in: .whitespacesAndNewlines) == original
      }
      if !whole, let lastColon = characters.lastIndex(of: ":"),
        let firstColon = characters.firstIndex(of: ":")
      {
        headline = String(characters[(lastColon + 1)...])
        if jsWordCount(headline) < 3 {
          headline = String(characters[(firstColon + 1)...])
        } else if jsWordCount(String(characters[..<firstColon])) > 5 {
          headline = original
        }
      }
    } else if original.utf16.count > 150 || original.utf16.count < 15 {
      let ones = headings.filter { $0.name == "h1" }
      if ones.count == 1 { headline = ones[0].text }
    }
    headline = headline.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    let words = jsWordCount(headline)
    let originalWords = jsWordCount(String(original.filter { !titleSeparators.contains($0) }))
    if words <= 4, !hierarchical || words != originalWords - 1 { return original }
    return headline
  }

  /// JavaScript's `text.split(/\s+/).length`, which Readability counts words by: a space at
  /// either end counts a word, and the empty text is one.
  static func jsWordCount(_ text: String) -> Int {
    var count = 1
    var inSpace = false
    for character in text {
      if character.isWhitespace {
        if !inSpace { count += 1 }
        inSpace = true
      } else {
        inSpace = false
      }
    }
    return count
  }
}
