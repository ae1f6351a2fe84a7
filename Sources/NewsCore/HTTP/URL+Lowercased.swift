import Foundation

extension URL {
  /// The URL with its scheme and host in lower case (`HTTP://Example.COM/Feed` →
  /// `http://example.com/Feed`): URLSession refuses an upper-case scheme, and both are
  /// case-insensitive anyway. The rest (path, query) is kept as written.
  public var lowercasingSchemeAndHost: URL {
    guard var components = URLComponents(url: self, resolvingAgainstBaseURL: true) else {
      return self
    }
    components.scheme = components.scheme?.lowercased()
    if let host = components.host { components.host = host.lowercased() }
    return components.url ?? self
  }
}
