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

  /// `text` (resolved against `base`) as an http:// or https:// URL with a host, scheme and host
  /// in lower case; `nil` for anything else. The one check of every URL a user, a file or a
  /// document gives.
  public static func web(_ text: some StringProtocol, relativeTo base: URL? = nil) -> URL? {
    guard let url = URL(string: String(text), relativeTo: base)?.absoluteURL, url.isWeb else {
      return nil
    }
    // Already in lower case, in ASCII (nearly every URL): as it is, without taking it apart
    // and making it again (a tenth of reading a config.json of 10,000 sources).
    let lower = { (part: String?) in
      (part ?? "").utf8.allSatisfy { $0 < 0x80 && !(0x41...0x5A).contains($0) }
    }
    if lower(url.scheme), lower(url.host) { return url }
    return url.lowercasingSchemeAndHost
  }

  /// Whether this is an http:// or https:// URL with a host.
  public var isWeb: Bool {
    ["http", "https"].contains(scheme?.lowercased() ?? "") && !(host ?? "").isEmpty
  }
}
