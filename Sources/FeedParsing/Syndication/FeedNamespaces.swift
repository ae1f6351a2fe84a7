import Foundation

/// The namespaces in scope while a feed is read, and the one prefix each known namespace is
/// called by here, whatever prefix the document chose (`<foo:creator xmlns:foo="…/dc/…">` is
/// `dc:creator`). RSS, RDF-RSS and Atom's own namespaces have no prefix: their elements are
/// `title`, `link`, `entry`. An undeclared prefix is taken as written (`dc:date` without
/// `xmlns:dc` is still `dc:date`), as lenient readers do.
package struct FeedNamespaces {
  /// Declarations kept in scope at once; a document needs a dozen.
  package static let maximumDeclarations = 256

  private var declarations: [(prefix: String, uri: String)] = []
  /// Names already made canonical under the declarations in scope (a feed repeats a dozen
  /// names thousands of times); emptied when a declaration comes or goes.
  private var canonicalNames: [String: String] = [:]
  /// Names remembered at most: a document of ever new names is not remembered whole.
  private static let maximumRemembered = 512

  /// Declares the `xmlns`/`xmlns:p` attributes of an element; returns how many were declared
  /// (to be undone with ``pop(_:)`` when the element ends).
  package mutating func push(_ attributes: [XMLAttribute]) -> Int {
    var count = 0
    for attribute in attributes where attribute.name.hasPrefix("xmlns") {
      let name = attribute.name
      let prefix: String
      if name == "xmlns" {
        prefix = ""
      } else if name.hasPrefix("xmlns:") {
        prefix = String(name.dropFirst(6)).lowercased()
      } else {
        continue
      }
      guard declarations.count < Self.maximumDeclarations else { break }
      declarations.append((prefix, attribute.value.trimmingCharacters(in: .whitespaces)))
      count += 1
    }
    if count > 0 { canonicalNames.removeAll(keepingCapacity: true) }
    return count
  }

  /// Undoes the last `count` declarations.
  package mutating func pop(_ count: Int) {
    guard count > 0 else { return }
    declarations.removeLast(min(count, declarations.count))
    canonicalNames.removeAll(keepingCapacity: true)
  }

  /// `name` (as written) in this reader's terms, lower-cased: `title`, `dc:date`,
  /// `content:encoded`, `xhtml:body`.
  package mutating func canonical(_ name: String) -> String {
    if let known = canonicalNames[name] { return known }
    let canonical = made(name)
    if canonicalNames.count < Self.maximumRemembered { canonicalNames[name] = canonical }
    return canonical
  }

  /// ``canonical(_:)`` worked out.
  private func made(_ name: String) -> String {
    let lower = name.lowercased()
    guard let colon = lower.firstIndex(of: ":") else {
      // Unprefixed: the default namespace's, which is the feed's own unless it is XHTML.
      if let uri = uri(for: ""), Self.known[uri.lowercased()] == "xhtml" { return "xhtml:" + lower }
      return lower
    }
    let prefix = String(lower[..<colon])
    let local = lower[lower.index(after: colon)...]
    if prefix == "xml" || prefix == "xmlns" { return lower }
    let mapped = uri(for: prefix).flatMap { Self.known[$0.lowercased()] } ?? prefix
    return mapped.isEmpty ? String(local) : mapped + ":" + local
  }

  private func uri(for prefix: String) -> String? {
    declarations.last { $0.prefix == prefix }?.uri
  }

  /// Namespace URIs (lower-cased) and the prefix they go by here.
  private static let known: [String: String] = [
    "http://www.w3.org/2005/atom": "",
    "http://purl.org/atom/ns#": "",
    "http://purl.org/rss/1.0/": "",
    "http://my.netscape.com/rdf/simple/0.9/": "",
    "http://backend.userland.com/rss": "",
    "http://backend.userland.com/rss2": "",
    "http://blogs.law.harvard.edu/tech/rss": "",
    "http://purl.org/rss/1.0/modules/rss091#": "",
    "http://purl.org/echo/": "",
    "http://purl.org/pie/": "",
    "http://purl.org/dc/elements/1.1/": "dc",
    "http://purl.org/dc/elements/1.0/": "dc",
    "http://purl.org/dc/terms/": "dcterms",
    "http://purl.org/rss/1.0/modules/content/": "content",
    "http://search.yahoo.com/mrss/": "media",
    "http://search.yahoo.com/mrss": "media",
    "http://www.itunes.com/dtds/podcast-1.0.dtd": "itunes",
    "http://www.itunes.com/dtd/podcast-1.0.dtd": "itunes",
    "http://www.w3.org/1999/xhtml": "xhtml",
    "http://www.w3.org/1999/02/22-rdf-syntax-ns#": "rdf",
    "http://rssnamespace.org/feedburner/ext/1.0": "feedburner",
    "http://purl.org/rss/1.0/modules/syndication/": "sy",
  ]
}
