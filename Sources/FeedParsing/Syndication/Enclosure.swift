/// A file an entry carries: an RSS `enclosure`, an Atom `rel="enclosure"` link, a
/// `media:content`, a JSON Feed attachment. Podcasts' episodes are these.
public struct Enclosure: Sendable, Hashable, Codable {
  /// Where the file is (absolute).
  public var url: String
  /// Its MIME type as the feed says it (`audio/mpeg`), lower-case.
  public var type: String?
  /// Its size in bytes, when the feed says.
  public var length: Int?
  /// Its length in seconds (`itunes:duration`, `media:content duration`, JSON Feed's
  /// `duration_in_seconds`), when the feed says.
  public var duration: Int?

  /// Creates an enclosure.
  public init(url: String, type: String? = nil, length: Int? = nil, duration: Int? = nil) {
    self.url = url
    self.type = type
    self.length = length
    self.duration = duration
  }

  /// Whether it is audio or video (what lists and browse mark, and `news play` plays).
  public var isMedia: Bool {
    guard let type else { return false }
    return type.hasPrefix("audio/") || type.hasPrefix("video/")
  }

  /// A duration as feeds write it: `3600`, `59:30`, `1:02:03` (fractions dropped); `nil` for
  /// anything else.
  package static func seconds(_ text: String) -> Int? {
    let parts = text.trimmingWhitespace().split(separator: ":", omittingEmptySubsequences: false)
    guard (1...3).contains(parts.count) else { return nil }
    var total = 0
    for part in parts {
      let whole = part.split(separator: ".", maxSplits: 1).first.map(String.init) ?? ""
      guard let value = Int(whole), value >= 0, value < 1_000_000_000 else { return nil }
      total = total * 60 + value
    }
    return total
  }

  /// A size in bytes as feeds write it; `nil` for none, zero or nonsense.
  package static func bytes(_ text: String?) -> Int? {
    guard let text, let value = Int(text.trimmingWhitespace()), value > 0 else { return nil }
    return value
  }
}
