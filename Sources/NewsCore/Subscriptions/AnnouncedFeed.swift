import Foundation

/// A feed a web page announces (`<link rel="alternate" type="application/rss+xml">`): its
/// address, and the `title` the page gives it (`Comments Feed`), when it gives one.
public struct AnnouncedFeed: Sendable, Equatable {
  /// Where the feed is, resolved against the page.
  public var url: URL
  /// The link's `title` attribute, trimmed; `nil` when it has none.
  public var title: String?

  /// An announced feed.
  public init(url: URL, title: String? = nil) {
    self.url = url
    self.title = title
  }
}
