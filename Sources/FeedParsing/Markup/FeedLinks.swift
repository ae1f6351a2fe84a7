import Foundation

/// Link handling for feeds: resolving relative references against `xml:base` and the document's
/// URL, and choosing an entry's link among those it carries.
package enum FeedLinks {
  /// One Atom-style `<link rel type href>`.
  package struct Candidate: Equatable {
    package var rel: String
    package var type: String
    package var href: String
  }

  /// `reference` made absolute against `base` when it is relative; as written (trimmed) when it
  /// is absolute already or there is no base to resolve it against.
  package static func resolve(_ reference: String, against base: URL?) -> String {
    let trimmed = String(reference.trimmingWhitespace())
    guard !trimmed.isEmpty, !hasScheme(trimmed), let base else { return trimmed }
    let resolved =
      URL(string: trimmed, relativeTo: base)
      ?? trimmed.addingPercentEncoding(withAllowedCharacters: allowed).flatMap {
        URL(string: $0, relativeTo: base)
      }
    return resolved?.absoluteString ?? trimmed
  }

  /// `xml:base` (or the document URL) `reference` sets for an element, given its parent's.
  package static func base(_ reference: String, against parent: URL?) -> URL? {
    let resolved = resolve(reference, against: parent)
    return URL(string: resolved) ?? parent
  }

  /// A candidate from `<link>`'s attributes: `rel` defaults to `alternate` (an IANA relation
  /// URI counts by its last segment), `type` is lower-cased without parameters.
  package static func candidate(rel: String?, type: String?, href: String) -> Candidate {
    var relation = (rel ?? "alternate").trimmingCharacters(in: .whitespaces).lowercased()
    if relation.hasPrefix("http://www.iana.org/assignments/relation/") {
      relation = String(relation.dropFirst("http://www.iana.org/assignments/relation/".count))
    }
    let kind = String((type ?? "").lowercased().prefix { $0 != ";" })
      .trimmingCharacters(in: .whitespaces)
    return Candidate(rel: relation.isEmpty ? "alternate" : relation, type: kind, href: href)
  }

  /// RFC 4287's choice: an `alternate` link of an HTML type (or none given), then the RSS
  /// `<link>` text, then any `alternate`, then the permanent `guid`. Never `self`, `related`,
  /// `enclosure` or the like.
  package static func choose(
    _ candidates: [Candidate], text: String?, permalink: String?
  ) -> String? {
    let alternates = candidates.filter { $0.rel == "alternate" && !$0.href.isEmpty }
    // Of several (one per language, say), the last, as feedparser reads it.
    if let html = alternates.last(where: { htmlTypes.contains($0.type) }) { return html.href }
    if let text, !text.isEmpty { return text }
    return alternates.first?.href ?? permalink
  }

  /// Whether `text` is an absolute URI (`https://…`, `tag:…`, `urn:…`): a `guid` or `id` that
  /// is one stands in for a missing link, as feedparser reads it.
  package static func isAbsolute(_ text: String) -> Bool {
    guard hasScheme(text) else { return false }
    // Most links are ASCII: their bytes are looked at, not their characters' properties.
    var ascii = true
    for byte in text.utf8 {
      if byte >= 0x80 {
        ascii = false
        break
      }
      if ASCIIWhitespace.contains(byte) { return false }
    }
    return ascii || !text.contains(where: \.isWhitespace)
  }

  /// A `guid` or `id` as the entry's link: its scheme lower-cased (`HTTP://` is `http://`), and
  /// `nil` for an http(s) one no URL parser accepts (`http://example.c[o.test/`), as feedparser
  /// gives none for it. Others (`tag:`, `urn:`) stand as written.
  package static func permalink(_ id: String) -> String? {
    guard let colon = id.utf8.firstIndex(of: UInt8(ascii: ":")) else { return id }
    let scheme = id[..<colon]
    let link =
      scheme.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A })
      ? scheme.lowercased() + id[colon...] : id
    guard isWebLink(link), !isPlainURL(link) else { return link }
    return URL(string: link)?.host?.isEmpty == false ? link : nil
  }

  /// Whether `link` (`scheme://host…`) is made only of bytes any URL may hold, with a host: one
  /// that needs no parser to be accepted. Non-ASCII, brackets and the like answer `false`.
  private static func isPlainURL(_ link: String) -> Bool {
    let bytes = link.utf8
    var index = bytes.startIndex
    var slashes = 0
    // Up to the first `://`: the scheme's bytes are not looked at.
    while index < bytes.endIndex {
      let byte = bytes[index]
      bytes.formIndex(after: &index)
      if byte == UInt8(ascii: ":") {
        slashes = 1
      } else if byte == UInt8(ascii: "/"), slashes > 0 {
        slashes += 1
        if slashes == 3 { break }
      } else {
        slashes = 0
      }
    }
    guard slashes == 3 else { return false }
    var hostLength = 0
    var inHost = true
    for byte in bytes[index...] {
      guard byte < 0x80, plainURLBytes[Int(byte)] else { return false }
      if inHost {
        if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
          inHost = false
        } else {
          hostLength += 1
        }
      }
    }
    return hostLength > 0
  }

  /// RFC 3986's unreserved, reserved but the brackets, and `%`: for each ASCII byte, whether it
  /// is one of them.
  private static let plainURLBytes: [Bool] = {
    var table = [Bool](repeating: false, count: 128)
    for byte
      in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#@!$&'()*+,;=%"
      .utf8
    {
      table[Int(byte)] = true
    }
    return table
  }()

  /// Whether `link` is an absolute http(s) URL (one a reader could open).
  package static func isWebLink(_ link: String) -> Bool {
    let lower = link.lowercased()
    return lower.hasPrefix("http://") || lower.hasPrefix("https://")
  }

  private static let htmlTypes: Set<String> = ["", "text/html", "application/xhtml+xml", "html"]

  /// What may stand unescaped in a URL reference.
  private static let allowed = CharacterSet.urlQueryAllowed.union(CharacterSet(charactersIn: "#"))

  /// RFC 3986: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`.
  package static func hasScheme(_ text: String) -> Bool {
    // The first colon's byte, unless a character may begin right after it (a combining mark
    // makes `:` and it one character, which the characters' search would pass over).
    let bytes = text.utf8
    guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return false }
    let after = bytes.index(after: colon)
    guard after < bytes.endIndex, bytes[after] >= 0x80 else {
      let scheme = bytes[..<colon]
      guard let first = scheme.first, isASCIILetter(first) else { return false }
      return scheme.allSatisfy {
        isASCIILetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E
      }
    }
    return hasSchemeByCharacter(text)
  }

  /// An ASCII letter's byte.
  private static func isASCIILetter(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
  }

  /// ``hasScheme(_:)`` read by characters.
  package static func hasSchemeByCharacter(_ text: String) -> Bool {
    guard let colon = text.firstIndex(of: ":"), colon > text.startIndex else { return false }
    let scheme = text[..<colon].unicodeScalars
    guard let first = scheme.first, first.isASCIILetter else { return false }
    return scheme.allSatisfy {
      $0.isASCIILetter || $0.isASCIIDigit || "+-.".unicodeScalars.contains($0)
    }
  }
}
