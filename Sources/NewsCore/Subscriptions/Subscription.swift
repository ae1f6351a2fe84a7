import Foundation

/// A feed to subscribe to, as an import file lists it.
public struct Subscription: Sendable, Equatable {
  /// Where the feed is.
  public var url: URL
  /// Its title, when the file gives one (it becomes the source's name).
  public var title: String?
  /// Folders (OPML) or tags (newsboat) it was filed under.
  public var tags: [String]
  /// The site the feed is of, when the file gives it (OPML's `htmlUrl`).
  public var site: URL?

  /// Creates a subscription.
  public init(url: URL, title: String? = nil, tags: [String] = [], site: URL? = nil) {
    self.url = url
    self.title = title
    self.tags = tags
    self.site = site
  }
}
