import Foundation

/// An account on the reader's own server (FreshRSS, Miniflux, Inoreader, Coldsweat, …): where
/// its API answers, which protocol it speaks, and the user. Its password is kept apart
/// (``AccountSecret``), in the encrypted store like the account itself, never in `config.json`.
public struct Account: Codable, Sendable, Equatable {
  /// The protocol the server speaks.
  public enum Kind: String, Codable, Sendable, CaseIterable {
    /// The Google Reader API (FreshRSS `…/api/greader.php`, Miniflux, Inoreader, The Old Reader).
    case greader
    /// The Fever API (FreshRSS `…/api/fever.php`, Miniflux `…/fever/`, Coldsweat `…/fever`).
    case fever
  }

  /// Its name: the first part of its sources' names (`home/hacker-news`).
  public var name: String
  /// The protocol.
  public var kind: Kind
  /// The URL the API answers at.
  public var url: URL
  /// The user name (an e-mail address for Fever servers).
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
