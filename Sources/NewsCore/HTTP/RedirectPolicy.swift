import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Which redirects the program follows.
///
/// - A redirect from `https` to `http` is refused for every request: it would send the request,
///   and anything in it, in clear text.
/// - A redirect whose target carries a user name or password (`https://u:p@host/`) is refused:
///   the HTTP client would turn it into Basic authentication the user never gave. The user and
///   password of the request's own URL (a feed behind Basic authentication) are the exception:
///   a redirect within its origin keeps them (``carried(from:to:)``), as a relative `Location`
///   resolved against that URL does.
/// - A request that carries a credential — a credential header (`X-Api-Key`, `Authorization`,
///   Miniflux's `X-Auth-Token`), a user name or password in its URL,
///   or a body (an account's `Passwd`, the Fever `api_key`, an edit token: every body the
///   program sends is an account's) — follows a redirect only within its origin (scheme, host
///   and port), or to `https` on the same host: the credential never travels to another server,
///   whatever the status (a 307 or 308 would resend the body as it is).
/// - Other requests (feeds, the info API) follow redirects anywhere else, as browsers do.
enum RedirectPolicy {
  /// Header names, lower-cased, whose value is a credential.
  static let credentialHeaders: Set<String> = ["x-api-key", "authorization", "x-auth-token"]

  /// Whether `request` carries a credential: a credential header, a user name or password in
  /// its URL, or a body.
  static func carriesCredential(_ request: URLRequest) -> Bool {
    carriesCredential(headers: request.allHTTPHeaderFields ?? [:], body: request.httpBody)
      || request.url.map(hasUserInfo) == true
  }

  /// Whether `request` carries a credential: a credential header, a user name or password in
  /// its URL, or a body.
  static func carriesCredential(_ request: OutgoingRequest) -> Bool {
    carriesCredential(headers: request.headers, body: request.body) || hasUserInfo(request.url)
  }

  private static func hasUserInfo(_ url: URL) -> Bool { url.user != nil || url.password != nil }

  private static func carriesCredential(headers: [String: String], body: Data?) -> Bool {
    headers.keys.contains { credentialHeaders.contains($0.lowercased()) }
      || !(body ?? Data()).isEmpty
  }

  /// Why the redirect from `from` to `to` must not be followed, or `nil` when it may be.
  static func refusal(from: URL, to: URL, carriesCredential: Bool) -> String? {
    let fromScheme = from.scheme?.lowercased() ?? ""
    let toScheme = to.scheme?.lowercased() ?? ""
    guard toScheme == "http" || toScheme == "https" else {
      return "it leads to a \(toScheme.isEmpty ? "relative or unknown" : toScheme) URL"
    }
    if fromScheme == "https", toScheme == "http" {
      return "it leaves https for http"
    }
    let within = staysWithin(from: from, to: to)
    if hasUserInfo(to), !(within && to.user == from.user && to.password == from.password) {
      return "its address carries a user name or password"
    }
    guard carriesCredential, !within else { return nil }
    return "it leads to another server, and the request carries a credential"
  }

  /// Where a redirect from `from` to `to` goes: `to` with `from`'s user and password when it
  /// stays within `from`'s origin and names none of its own, so that a feed behind Basic
  /// authentication is still asked with them; else `to` as it is.
  static func carried(from: URL, to: URL) -> URL {
    guard hasUserInfo(from), !hasUserInfo(to), staysWithin(from: from, to: to),
      var components = URLComponents(url: to, resolvingAgainstBaseURL: true)
    else { return to }
    let source = URLComponents(url: from, resolvingAgainstBaseURL: true)
    components.percentEncodedUser = source?.percentEncodedUser
    components.percentEncodedPassword = source?.percentEncodedPassword
    return components.url ?? to
  }

  /// Whether `to` is within `from`'s origin (scheme, host and port), or `https` on its host.
  private static func staysWithin(from: URL, to: URL) -> Bool {
    let fromScheme = from.scheme?.lowercased() ?? ""
    let toScheme = to.scheme?.lowercased() ?? ""
    let sameHost = from.host?.lowercased() == to.host?.lowercased()
    if sameHost, port(of: from) == port(of: to), fromScheme == toScheme { return true }
    return sameHost && fromScheme == "http" && toScheme == "https" && port(of: to) == 443
  }

  /// `host` or `host:port`, as a user would recognise it in a message (never a user name or
  /// password the URL may hold).
  static func origin(of url: URL) -> String {
    let host = url.host ?? "?"
    guard let port = url.port else { return host }
    return "\(host):\(port)"
  }

  private static func port(of url: URL) -> Int {
    url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
  }
}
