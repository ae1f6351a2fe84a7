import Foundation

/// A provider as `news sources` lists it beside the feed's sources: where it answers, whether it
/// is enabled, what it lacks, and when its default list was last fetched.
public struct ProviderStatus: Sendable {
  /// Its name (`newsapi`, `articles`, `bbc`).
  public var name: String
  /// Where it answers.
  public var url: URL
  /// Whether `sync` and browse's home screen include it.
  public var enabled: Bool
  /// What it needs and lacks (newsapi.org's key), if anything.
  public var missing: String?
  /// When its default list was last fetched and stored.
  public var fetchedAt: Date?
  /// Why the store could not say (a wrong key, a damaged listing): then ``fetchedAt`` is
  /// unknown, not "never".
  public var error: String?
}
