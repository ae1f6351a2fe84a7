import Foundation

/// The proxy a request goes through, from the environment as curl reads it — `http_proxy` for
/// `http://` URLs, `https_proxy` for `https://`, else `all_proxy`; each also in upper case
/// (`HTTP_PROXY` too: `news` is no CGI program, where that name could come from a request),
/// the lower-case one winning — and the hosts `no_proxy` (`NO_PROXY`) exempts: a comma-separated
/// list of names, each matching that host and its subdomains, or `*` for every host.
struct ProxySettings: Sendable, Equatable {
  /// The proxy for each scheme that has one (`http`, `https`), and for any other (`all_proxy`).
  private var proxies: [String: Proxy] = [:]
  private var anyScheme: Proxy?
  /// The names `no_proxy` exempts, lower case, without ports, brackets or a leading dot; `nil`
  /// for `*`.
  private var exempted: [String]? = []

  /// The settings of `environment`, read once: a refresh asks them for every request.
  init(environment: [String: String]) {
    func named(_ name: String) -> Proxy? {
      for variable in [name, name.uppercased()] {
        if let value = environment[variable]?.trimmingCharacters(in: .whitespaces),
          !value.isEmpty
        {
          return Proxy(url: value, variable: variable)
        }
      }
      return nil
    }
    for scheme in ["http", "https"] { proxies[scheme] = named(scheme + "_proxy") }
    anyScheme = named("all_proxy")
    let list = environment["no_proxy"] ?? environment["NO_PROXY"] ?? ""
    for entry in list.split(separator: ",") {
      var name = entry.trimmingCharacters(in: .whitespaces).lowercased()
      if name == "*" {
        exempted = nil
        break
      }
      if let colon = name.lastIndex(of: ":"), !name.contains("]"),
        name.filter({ $0 == ":" }).count == 1
      {
        name = String(name[..<colon])
      }
      name = name.trimmingCharacters(in: CharacterSet(charactersIn: ".[]"))
      if !name.isEmpty { exempted?.append(name) }
    }
  }

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
    guard let proxy = proxies[url.scheme?.lowercased() ?? "http"] ?? anyScheme else { return nil }
    return exempts(url.host ?? "") ? nil : proxy
  }

  /// Whether `no_proxy` names `host` (or a domain above it).
  func exempts(_ host: String) -> Bool {
    guard let exempted else { return true }
    let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    return exempted.contains { host == $0 || host.hasSuffix("." + $0) }
  }
}
