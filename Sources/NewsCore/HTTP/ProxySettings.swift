import Foundation

/// The proxy a request goes through, from the environment as curl reads it — `http_proxy` for
/// `http://` URLs, `https_proxy` for `https://`, else `all_proxy`; each also in upper case
/// (`HTTP_PROXY` too: `news` is no CGI program, where that name could come from a request),
/// the lower-case one winning — and the hosts `no_proxy` (`NO_PROXY`) exempts: a comma-separated
/// list of names, each matching that host and its subdomains, or `*` for every host.
struct ProxySettings: Sendable, Equatable {
  /// The variables, as the program's environment holds them.
  var environment: [String: String]

  /// A proxy, and the variable that named it (for messages).
  struct Proxy: Sendable, Equatable {
    var url: String
    var variable: String

    /// `host:port` of the proxy, as a message names it.
    var origin: String {
      let parsed = URL(string: url.contains("://") ? url : "http://" + url)
      guard let host = parsed?.host else { return url }
      return parsed?.port.map { "\(host):\($0)" } ?? host
    }
  }

  /// The proxy for `url`, or `nil` for a direct connection.
  func proxy(for url: URL) -> Proxy? {
    let scheme = url.scheme?.lowercased() ?? "http"
    guard !exempts(url.host ?? "") else { return nil }
    for name in [scheme + "_proxy", "all_proxy"] {
      for variable in [name, name.uppercased()] {
        if let value = environment[variable]?.trimmingCharacters(in: .whitespaces),
          !value.isEmpty
        {
          return Proxy(url: value, variable: variable)
        }
      }
    }
    return nil
  }

  /// Whether `no_proxy` names `host` (or a domain above it).
  func exempts(_ host: String) -> Bool {
    let list = environment["no_proxy"] ?? environment["NO_PROXY"] ?? ""
    let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    for entry in list.split(separator: ",") {
      var name = entry.trimmingCharacters(in: .whitespaces).lowercased()
      if name == "*" { return true }
      if let colon = name.lastIndex(of: ":"), !name.contains("]"),
        name.filter({ $0 == ":" }).count == 1
      {
        name = String(name[..<colon])
      }
      name = name.trimmingCharacters(in: CharacterSet(charactersIn: ".[]"))
      guard !name.isEmpty else { continue }
      if host == name || host.hasSuffix("." + name) { return true }
    }
    return false
  }
}
