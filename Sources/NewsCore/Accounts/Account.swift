import Foundation

/// An account on the reader's own server (FreshRSS, Miniflux, Nextcloud News, Tiny Tiny RSS,
/// Feedbin, Inoreader, Coldsweat, …): where its API answers, which protocol it speaks, and the
/// user. Its password is kept apart
/// (``AccountSecret``), in the encrypted store like the account itself, never in `config.json`.
public struct Account: Codable, Sendable, Equatable {
  /// The protocol the server speaks.
  public enum Kind: String, Codable, Sendable, CaseIterable {
    /// The Google Reader API (FreshRSS `…/api/greader.php`, Miniflux, Inoreader, The Old Reader).
    case greader
    /// The Fever API (FreshRSS `…/api/fever.php`, Miniflux `…/fever/`, Coldsweat `…/fever`).
    case fever
    /// Miniflux's own API (`/v1/`), with an API key or a user and password.
    case miniflux
    /// Nextcloud News's API v1.3 (`/index.php/apps/news/api/v1-3/`).
    case nextcloud
    /// Tiny Tiny RSS's API (`/api/`, a JSON body, a session id).
    case ttrss
    /// Feedbin's API v2 (`https://api.feedbin.com/v2/`, HTTP Basic with the e-mail address).
    case feedbin

    /// The API's name and where a server serves it, for the option that names its URL
    /// (`--greader <url>`: its name is the kind's).
    public var api: String {
      switch self {
      case .greader: "Google Reader API URL (FreshRSS: https://host/api/greader.php)"
      case .fever: "Fever API URL (Coldsweat: https://host/fever)"
      case .miniflux: "Miniflux URL (https://host/, its API under /v1/)"
      case .nextcloud: "Nextcloud URL (https://host/, News's API under /index.php/apps/news/)"
      case .ttrss: "Tiny Tiny RSS URL (https://host/tt-rss/, its API under /api/)"
      case .feedbin: "Feedbin API URL (https://api.feedbin.com/v2/)"
      }
    }

    /// Where the API answers when no URL is given: Feedbin's (one service); `nil` for the
    /// servers a reader runs.
    public var defaultURL: URL? {
      self == .feedbin ? URL(string: "https://api.feedbin.com/v2/") : nil
    }

    /// Whether the user may be left out: Miniflux, whose API key stands for both.
    public var takesAPIKey: Bool { self == .miniflux }
  }

  /// Its name: the first part of its sources' names (`home/hacker-news`).
  public var name: String
  /// The protocol.
  public var kind: Kind
  /// The URL the API answers at.
  public var url: URL
  /// The user name (an e-mail address for Fever servers and Feedbin); empty for a Miniflux
  /// account signed in with an API key.
  public var user: String

  /// Creates an account.
  public init(name: String, kind: Kind, url: URL, user: String) {
    self.name = name
    self.kind = kind
    self.url = url
    self.user = user
  }
}

/// An account with its password: what the store's `accounts` file holds.
struct AccountSecret: Codable, Sendable {
  var account: Account
  var password: String
}

extension Account {
  /// Whether `url` carries a user name or password (`https://u:p@host/`): an account's URL must
  /// not (its password is kept apart, and a URL is shown and logged).
  public static func carriesUserInfo(_ url: URL) -> Bool {
    url.user != nil || url.password != nil
  }

  /// The warning to give when the password, or the Fever key made from it, would travel in
  /// clear text: a plain `http://` URL whose host is not this machine. `nil` otherwise.
  public var plainTextWarning: String? {
    guard url.scheme?.lowercased() == "http", !Self.isLoopback(url.host ?? "") else { return nil }
    let secret =
      switch kind {
      case .fever: "the Fever key made from the password"
      case .miniflux where user.isEmpty: "the API key"
      default: "the password"
      }
    return "account \(name): \(secret) travels in clear text over http:// to \(url.host ?? "?") "
      + "(anyone on the way can read it; use an https:// URL if the server has one)"
  }

  /// `localhost`, `127.x.x.x` or `::1`.
  static func isLoopback(_ host: String) -> Bool {
    let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    return host == "localhost" || host.hasSuffix(".localhost") || host == "::1"
      || (host.hasPrefix("127.") && host.split(separator: ".").count == 4)
  }
}
