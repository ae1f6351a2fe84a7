import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Which redirects the program follows.
///
/// - A redirect from `https` to `http` is refused for every request: it would send the request,
///   and anything in it, in clear text.
/// - A redirect whose target carries a user name or password (`https://u:p@host/`) is refused:
///   the HTTP client would turn it into Basic authentication the user never gave.
/// - A request that carries a credential — a credential header (`X-Api-Key`, `Authorization`,
///   Miniflux's `X-Auth-Token`)
///   or a body (an account's `Passwd`, the Fever `api_key`, an edit token: every body the
///   program sends is an account's) — follows a redirect only within its origin (scheme, host
///   and port), or to `https` on the same host: the credential never travels to another server,
///   whatever the status (a 307 or 308 would resend the body as it is).
/// - Other requests (feeds, the info API) follow redirects anywhere else, as browsers do.
enum RedirectPolicy {
  /// Header names, lower-cased, whose value is a credential.
  static let credentialHeaders: Set<String> = ["x-api-key", "authorization", "x-auth-token"]

  /// Whether `request` carries a credential: a credential header, or a body.
  static func carriesCredential(_ request: URLRequest) -> Bool {
    carriesCredential(headers: request.allHTTPHeaderFields ?? [:], body: request.httpBody)
  }

  /// Whether `request` carries a credential: a credential header, or a body.
  static func carriesCredential(_ request: OutgoingRequest) -> Bool {
    carriesCredential(headers: request.headers, body: request.body)
  }

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
    if to.user != nil || to.password != nil {
      return "its address carries a user name or password"
    }
    guard carriesCredential else { return nil }
    let sameHost = from.host?.lowercased() == to.host?.lowercased()
    if sameHost, port(of: from) == port(of: to), fromScheme == toScheme { return nil }
    if sameHost, fromScheme == "http", toScheme == "https", port(of: to) == 443 { return nil }
    return "it leads to another server, and the request carries a credential"
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
