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

  /// Whether `id`, derived from a link, names anything: `https://` and `http:///` derive ids of
  /// nothing but dashes (or none at all), which an article cannot be keyed on.
  public static func namesAPage(_ id: String) -> Bool {
    id.contains { $0 != "-" }
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
    // Nearly every link is ASCII: read as bytes, and returned as it is when nothing changes.
    let bytes = Array(url.utf8)
    guard bytes.allSatisfy({ $0 < 0x80 }) else { return normalizedLinkByCharacter(url) }
    guard
      let separator = bytes.indices.dropLast(2).first(where: {
        bytes[$0] == UInt8(ascii: ":") && bytes[$0 + 1] == UInt8(ascii: "/")
          && bytes[$0 + 2] == UInt8(ascii: "/")
      })
    else { return url }
    let scheme = bytes[..<separator].map(Self.lowercased)
    let secure: Bool
    if scheme.elementsEqual("http".utf8) {
      secure = false
    } else if scheme.elementsEqual("https".utf8) {
      secure = true
    } else {
      return url
    }
    let restStart = separator + 3
    let restEnd = bytes[restStart...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
    let authorityEnd =
      bytes[restStart..<restEnd].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }
      ?? restEnd
    let hostStart =
      bytes[restStart..<authorityEnd].lastIndex(of: UInt8(ascii: "@")).map { $0 + 1 } ?? restStart
    var host = bytes[hostStart..<authorityEnd].map(Self.lowercased)
    let defaultPort = Array((secure ? ":443" : ":80").utf8)
    if host.count >= defaultPort.count, host.suffix(defaultPort.count).elementsEqual(defaultPort) {
      host.removeLast(defaultPort.count)
    }
    let unchanged =
      restEnd == bytes.endIndex && scheme.elementsEqual(bytes[..<separator])
      && host.elementsEqual(bytes[hostStart..<authorityEnd])
    if unchanged { return url }
    var out = scheme
    out += bytes[separator..<hostStart]
    out += host
    out += bytes[authorityEnd..<restEnd]
    return String(decoding: out, as: UTF8.self)
  }

  /// An ASCII letter lower-cased; any other byte as it is.
  @inline(__always)
  private static func lowercased(_ byte: UInt8) -> UInt8 {
    byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
  }

  /// ``normalizedLink(_:)`` read by characters: for links that are not ASCII.
  static func normalizedLinkByCharacter(_ url: String) -> String {
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
