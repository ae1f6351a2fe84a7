import FeedParsing
import Foundation

extension HTTPResponse {
  /// Where a feed in the body came from, for reading it: relative links resolve against the
  /// response's `Content-Location` when it gives one (resolved against the URL that answered),
  /// as feedparser reads them, else against that URL.
  public var origin: FeedOrigin {
    let location = headers["content-location"].flatMap { value -> URL? in
      let trimmed = value.trimmingCharacters(in: .whitespaces)
      guard !trimmed.isEmpty else { return nil }
      return URL(string: trimmed, relativeTo: url)?.absoluteURL
    }
    return FeedOrigin(url: location ?? url, contentType: headers["content-type"])
  }
}
