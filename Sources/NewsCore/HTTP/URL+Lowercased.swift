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

  /// A feed's address as it is written in the wild: an http(s) URL (``web(_:relativeTo:)``), or
  /// one in a scheme that stands for one — `feed://host/x` (http), `feed:https://host/x`, and
  /// podcast apps' `itpc://`, `pcast://` and `podcast://` — as that http(s) URL; `nil` for
  /// anything else.
  public static func feed(_ text: some StringProtocol) -> URL? {
    let written = text.trimmingCharacters(in: .whitespaces)
    if let url = web(written) { return url }
    guard let colon = written.firstIndex(of: ":"),
      ["feed", "itpc", "pcast", "podcast"].contains(written[..<colon].lowercased())
    else { return nil }
    let rest = written[written.index(after: colon)...]
    // `feed:https://host/x`, `feed://https://host/x`: the address inside.
    let inner = rest.hasPrefix("//") ? rest.dropFirst(2) : rest
    if inner.lowercased().hasPrefix("http://") || inner.lowercased().hasPrefix("https://") {
      return web(inner)
    }
    return rest.hasPrefix("//") ? web("http:" + rest) : nil
  }

  /// The address as two spellings of it compare: scheme and host in lower case, no trailing
  /// `/` (`HTTPS://Example.com/feed/` and `https://example.com/feed` are one feed).
  public var comparableAddress: String {
    var text = absoluteString
    if let scheme, let host {
      let prefix = "\(scheme)://\(host)"
      if text.lowercased().hasPrefix(prefix.lowercased()) {
        text = prefix.lowercased() + text.dropFirst(prefix.count)
      }
    }
    while text.hasSuffix("/") { text.removeLast() }
    return text
  }

  /// The URL without the user name and password it carries (`https://u:p@host/x` →
  /// `https://host/x`), to show or pass on; itself when it carries none.
  public var withoutCredentials: URL {
    guard user != nil || password != nil,
      var components = URLComponents(url: self, resolvingAgainstBaseURL: true)
    else { return self }
    components.user = nil
    components.password = nil
    return components.url ?? self
  }

  /// The URL as it may be shown: a password it carries (`https://ann:pw@host/feed`, a feed
  /// behind HTTP Basic authentication) left out, its user name kept (`https://ann@host/feed`).
  /// Lists, JSON documents, exports, errors and `news serve` show a source's URL this way.
  public var withoutPassword: URL {
    guard password != nil, var components = URLComponents(url: self, resolvingAgainstBaseURL: true)
    else { return self }
    components.password = nil
    return components.url ?? self
  }

  /// Whether this is an http:// or https:// URL with a host.
  public var isWeb: Bool {
    ["http", "https"].contains(scheme?.lowercased() ?? "") && !(host ?? "").isEmpty
  }
}
