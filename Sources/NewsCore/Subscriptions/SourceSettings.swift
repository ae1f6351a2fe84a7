import FeedParsing
import Foundation

/// What `news sources set <name>` changes in a source's entry of `config.json`; `nil` leaves a
/// setting as it is.
public struct SourceSettings: Sendable, Equatable {
  /// Seconds its answer stays fresh.
  public var ttl: Int?
  /// Keep and show at most this many items; 0 removes the limit.
  public var maxItems: Int?
  /// The tags it is filed under; an empty list removes them.
  public var tags: [String]?
  /// Whether `feed`, `sync` and `browse` fetch it.
  public var enabled: Bool?
  /// Whether its articles' full text is extracted and shown (`"fullText"`).
  public var fullText: Bool?
  /// Whether the plain feed and browse's home leave it out (`"hidden"`).
  public var hidden: Bool?
  /// What OPML exports and `news serve`'s apps call it (`"title"`); empty removes it.
  public var title: String?
  /// Where it is fetched from (`"url"`): a feed that moved.
  public var url: URL?

  /// Settings to change.
  public init(
    ttl: Int? = nil, maxItems: Int? = nil, tags: [String]? = nil, enabled: Bool? = nil,
    fullText: Bool? = nil, hidden: Bool? = nil, title: String? = nil, url: URL? = nil
  ) {
    self.url = url
    self.title = title
    self.fullText = fullText
    self.hidden = hidden
    self.ttl = ttl
    self.maxItems = maxItems
    self.tags = tags
    self.enabled = enabled
  }

  /// The members to write, as JSON text (`nil`: remove the member).
  var members: [(key: String, value: String?)] {
    var members: [(key: String, value: String?)] = []
    if let url { members.append(("url", JSONValue.string(url.absoluteString).serialized())) }
    if let ttl { members.append(("ttl", String(ttl))) }
    if let maxItems { members.append(("maxItems", maxItems == 0 ? nil : String(maxItems))) }
    if let tags {
      members.append(
        ("tags", tags.isEmpty ? nil : JSONValue.array(tags.map { .string($0) }).serialized()))
    }
    if let enabled { members.append(("enabled", enabled ? nil : "false")) }
    if let fullText { members.append(("fullText", fullText ? "true" : nil)) }
    if let hidden { members.append(("hidden", hidden ? "true" : nil)) }
    if let title {
      let plain = TerminalSanitizer.clean(title).trimmingWhitespace()
      members.append(("title", plain.isEmpty ? nil : JSONValue.string(String(plain)).serialized()))
    }
    return members
  }
}
