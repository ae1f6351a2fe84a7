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
        let key = (element["property"] ?? element["name"] ?? element["itemprop"] ?? "").lowercased()
        if !key.isEmpty,
          let content = element["content"]?.trimmingCharacters(in: .whitespacesAndNewlines),
          !content.isEmpty, meta[key] == nil
        {
          meta[key] = content
        }
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
    // The headline as the page declares it, kept as declared: JSON-LD's `headline` or `name`,
    // then the `<meta>` titles in Readability's order. Only without one, the `<title>`: the
    // page's h1 when the title holds it with more (`Hedgehog - Wikipedia` and `<h1>Hedgehog`),
    // else the title without the site's name.
    let declared =
      clean(article?["headline"] as? String) ?? clean(article?["name"] as? String)
      ?? first([
        "dc:title", "dcterm:title", "og:title", "weibo:article:title", "weibo:webpage:title",
        "title", "twitter:title", "parsely-title", "citation_title",
      ])
    title =
      declared
      ?? Self.heading(in: root, within: documentTitle, siteName: siteName)
      ?? Self.trimmedTitle(documentTitle, siteName: siteName)
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

  /// The page's first `<h1>` when `<title>` holds it (`Story — Site docs` and `<h1>Story`).
  static func heading(in root: HTMLElement, within title: String?, siteName: String? = nil)
    -> String?
  {
    guard let title, let h1 = root.first(named: "h1") else { return nil }
    let text = h1.text.trimmingCharacters(in: CharacterSet(charactersIn: "¶#§ "))
    guard !text.isEmpty, title.localizedCaseInsensitiveContains(text),
      text.lowercased() != siteName?.lowercased()
    else { return nil }
    // Three words and more anywhere in the title; a shorter one only where the title starts
    // with it and a separator follows (`Hedgehog - Wikipedia`): a site's name in an h1
    // (`<h1>Example</h1>`, `Story | Example`) is not the headline.
    if text.split(separator: " ").count >= 3 { return text }
    guard title.lowercased().hasPrefix(text.lowercased()) else { return nil }
    let rest = title.dropFirst(text.count)
    let separators = [" - ", " | ", " – ", " — ", " :: ", " · ", " » ", ": "]
    return separators.contains { rest.hasPrefix($0) } ? text : nil
  }

  /// `<title>` without the site's name: `Story | Site`, `Story - Site`, `Site: Story`.
  static func trimmedTitle(_ title: String?, siteName: String?) -> String? {
    guard var title = title?.trimmingCharacters(in: .whitespacesAndNewlines), !title.isEmpty else {
      return nil
    }
    for separator in [" | ", " - ", " – ", " — ", " :: ", " · ", " » "] {
      let parts = title.components(separatedBy: separator)
      guard parts.count > 1 else { continue }
      if let siteName,
        let index = parts.firstIndex(where: {
          $0.localizedCaseInsensitiveCompare(siteName) == .orderedSame
        })
      {
        var rest = parts
        rest.remove(at: index)
        title = rest.joined(separator: separator)
      } else if let first = parts.first, first.split(separator: " ").count >= 3,
        let last = parts.last, last.split(separator: " ").count <= 4
      {
        // `A long story headline - Site Name`: a short last part is the site. What is left
        // must still be a headline: four words or fewer keep the whole title, as Readability
        // keeps it (`The Harbour Gazette — Local news` is a home page's name, not a story's),
        // but where a hierarchical separator (`»`) took only the last word away.
        let trimmed = parts.dropLast().joined(separator: separator)
        let words = trimmed.split(separator: " ").count
        let hierarchical = separator == " » " && words == title.split(separator: " ").count - 2
        if words > 4 || hierarchical { title = trimmed }
      }
      break
    }
    return title
  }
}
