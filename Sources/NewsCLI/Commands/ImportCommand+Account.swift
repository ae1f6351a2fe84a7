import NewsCore

extension ImportCommand {
  /// newsboat's services and the kinds of account that speak their protocol.
  static let accountKinds: [String: (kind: Account.Kind, url: String?)] = [
    "ttrss": (.ttrss, nil), "miniflux": (.miniflux, nil), "ocnews": (.nextcloud, nil),
    "freshrss": (.greader, nil), "feedbin": (.feedbin, nil),
    "oldreader": (.greader, "https://theoldreader.com/"),
  ]

  /// `urls-source`'s line: the account to add, as the command that adds it (its password is
  /// never imported: asked when it is added, or read from newsboat's password file).
  static func sayAccount(_ plan: inout NewsboatImport) {
    for (index, words) in plan.deferred where words.first == "urls-source" {
      guard words.count == 2 else {
        plan.lines[index].outcome = "urls-source needs a service"
        continue
      }
      let service = words[1]
      let settings = plan.accountSettings
      switch service {
      case "local":
        plan.lines[index].carried = true
        plan.lines[index].outcome = "the urls file (read above)"
        continue
      case "opml":
        plan.lines[index].outcome =
          "newsboat reads opml-url's files at each start: save one and run news sources import "
          + "<file>"
        continue
      default:
        break
      }
      guard let (kind, fixedURL) = accountKinds[service] else {
        plan.lines[index].outcome = "news speaks no \(service) protocol (docs/accounts.md)"
        continue
      }
      var command = "news accounts add \(service == "ocnews" ? "nextcloud" : service)"
      if kind == .feedbin {
        command += " --feedbin"
        if let url = settings["feedbin-url"] { command += " --url \(url)" }
      } else {
        guard let url = settings[service + "-url"] ?? fixedURL else {
          plan.lines[index].outcome = "\(service)-url is missing: the server is not known"
          continue
        }
        command += " --\(kind.rawValue) \(url)"
      }
      if let login = settings[service + "-login"] { command += " --user \(login)" }
      var password = "the password asked when you add it"
      if let file = settings[service + "-passwordfile"] {
        command += " --password-file \(file)"
        password = "the password read from newsboat's file"
      } else if settings[service + "-passwordeval"] != nil {
        password =
          "the password: what \(service)-passwordeval's command prints, asked when you add it"
      }
      plan.lines[index].outcome = "an account to add (\(password)): \(command)"
    }
  }
}
