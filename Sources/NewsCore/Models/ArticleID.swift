/// The ARTICLEID rule: how an article's URL becomes its identifier.
///
/// The id is the URL without its scheme (`https://`, `http://`, any `scheme://`) with every `/`
/// replaced by `-`. Nothing else changes: `?`, `&`, `=`, `#`, `%`, non-ASCII characters and a
/// trailing `-` stay as the derivation gives them. The info API keys likes and comments on it.
public enum ArticleID {
  /// Derives the id of the article at `url`.
  ///
  /// `https://www.cnn.com/2020/07/20/us/index.html` → `www.cnn.com-2020-07-20-us-index.html`.
  public static func derive(fromURL url: String) -> String {
    var start = url.startIndex
    if let separator = url.firstRange(of: "://"),
      isScheme(url[url.startIndex..<separator.lowerBound])
    {
      start = separator.upperBound
    }
    // `/` is one byte in UTF-8 and never part of another character's bytes: replaced in the
    // bytes, the rest of the text stays as it is.
    var id = Array(url.utf8[start...])
    for index in id.indices where id[index] == UInt8(ascii: "/") { id[index] = UInt8(ascii: "-") }
    return String(decoding: id, as: UTF8.self)
  }

  /// The id a feed's item with link `url` gets: ``derive(fromURL:)`` of ``normalizedLink(_:)``.
  public static func forLink(_ url: String) -> String {
    derive(fromURL: normalizedLink(url))
  }

  /// `url` as the feed's id rule reads it: what makes one link look like two is taken away
  /// first. The scheme and host are lower-cased, a default port (`:80` for http, `:443` for
  /// https) and the fragment (`#…`) are dropped; path and query stay as they are. Anything but an
  /// http(s) URL is returned unchanged.
  ///
  /// `HTTPS://Example.COM:443/a/b#top` → `https://example.com/a/b`.
  public static func normalizedLink(_ url: String) -> String {
    guard let separator = url.firstRange(of: "://") else { return url }
    let scheme = url[..<separator.lowerBound].lowercased()
    guard scheme == "http" || scheme == "https" else { return url }
    var rest = url[separator.upperBound...]
    if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
    let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
    var authority = rest[..<authorityEnd]
    var userInfo = ""
    if let at = authority.lastIndex(of: "@") {
      userInfo = String(authority[...at])
      authority = authority[authority.index(after: at)...]
    }
    var host = authority.lowercased()
    let defaultPort = scheme == "http" ? ":80" : ":443"
    if host.hasSuffix(defaultPort) { host.removeLast(defaultPort.count) }
    return scheme + "://" + userInfo + host + rest[authorityEnd...]
  }

  /// Percent-encodes `id` as one URL path segment: every byte outside the unreserved set
  /// (`A–Z a–z 0–9 - . _ ~`) is written as `%XX`, so `/`, `?`, `#` and `%` cannot change the path.
  public static func pathSegment(_ id: String) -> String {
    var out = ""
    for byte in id.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        out +=
          "%" + String(byte >> 4, radix: 16, uppercase: true)
          + String(byte & 0xF, radix: 16, uppercase: true)
      }
    }
    return out
  }

  /// RFC 3986: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
  private static func isScheme(_ candidate: Substring) -> Bool {
    guard let first = candidate.unicodeScalars.first, first.isASCII,
      first.properties.isAlphabetic
    else { return false }
    return candidate.unicodeScalars.allSatisfy { scalar in
      scalar.isASCII
        && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
          || "+-.".unicodeScalars
            .contains(scalar))
    }
  }
}
