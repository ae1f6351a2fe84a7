import NewsCore

/// A source as the apps see it: a feed (`feed/<name>` in the Google Reader API, a number in
/// Fever's), filed under its tags.
struct ServedFeed: Sendable, Equatable {
  /// The source's name (`hn`, `home/lwn`).
  var name: String
  /// What the apps show: its feed's title (`Hacker News`), else its name.
  var title: String
  /// Its feed's address (a provider's: `news:<name>`).
  var url: String
  /// Its tags: the labels (folders) it is filed under.
  var labels: [String]
  /// The site it is of, when known (else the apps are given its feed's address).
  var site: String?

  /// The page the apps link it to (`htmlUrl`, Fever's `site_url`): its site, else its feed.
  var page: String { site ?? url }

  /// `feed/<name>`.
  var streamID: String { "feed/" + name }

  /// Its number in the Fever API.
  var number: Int { ServedFeed.number(of: "feed\0" + name) }

  /// A stable number from 1 to 2^31 - 1 for `key` (Fever's feed and group ids).
  static func number(of key: String) -> Int {
    let hash = Int(StableHash.hex(key, length: 8), radix: 16) ?? 1
    return max(1, hash & 0x7fff_ffff)
  }
}
