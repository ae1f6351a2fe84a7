import Foundation

/// The feed's sources: the built-in ones, then those of `config.json`, then TTLs from the
/// environment (`NEWS_FEED_<NAME>_TTL`, seconds), strongest last.
public enum FeedRegistry {
  /// The adapter that reads web feeds (RSS, RDF, Atom, JSON Feed), for tools that read feed
  /// documents themselves (`news-benchmark parse`).
  public static var webFeedAdapter: any FeedAdapter { SyndicationAdapter() }

  /// The sources a command works on: those `names` names (disabled ones too), else every
  /// enabled one but the saved searches (which repeat what the others list) and the hidden ones;
  /// with `tag`, only those filed under it (saved searches and hidden ones included). Both given,
  /// both filter: the named sources filed under `tag`.
  public static func selected(_ sources: [FeedSource], names: [String], tag: String?)
    -> [FeedSource]
  {
    sources.filter { source in
      if let tag, !source.tags.contains(tag) { return false }
      guard names.isEmpty else { return names.contains(source.name) }
      return source.enabled && (tag != nil || (source.search == nil && !source.hidden))
    }
  }

  /// The hidden sources (newsboat's `!`) fetched beside the others although never listed with
  /// them, as newsboat reloads them: the enabled ones read from their own sites (no saved search,
  /// no account's feed, which its account's sync brings).
  public static func hiddenFetched(_ sources: [FeedSource]) -> [FeedSource] {
    sources.filter { $0.enabled && $0.hidden && $0.search == nil && $0.account == nil }
  }

  /// The built-in sources: one line each.
  public static func builtIn(_ configuration: Configuration) -> [FeedSource] {
    let urls = configuration.feedURLs
    return [
      FeedSource(
        name: SourceName.feedA, url: urls[SourceName.feedA]!, ttl: .seconds(5 * 60),
        adapter: StoriesAdapter()),
      FeedSource(
        name: SourceName.feedB, url: urls[SourceName.feedB]!, ttl: .seconds(30 * 60),
        adapter: InnerDataAdapter()),
      FeedSource(
        name: SourceName.feedC, url: urls[SourceName.feedC]!, ttl: .seconds(60 * 60),
        adapter: TopLineAdapter()),
    ]
  }

  /// Every source, in order: built-in ones (possibly changed by the config file), then the config
  /// file's new ones, each with the TTL of `NEWS_FEED_<NAME>_TTL` when it is set.
  ///
  /// - Parameters:
  ///   - file: `config.json`, decoded (``FeedConfigFile/load(_:)``).
  ///   - builtIn: the sources defined in code; tests pass extra ones.
  public static func sources(
    _ configuration: Configuration, file: FeedConfigFile?, builtIn: [FeedSource]? = nil
  ) -> [FeedSource] {
    var sources = builtIn ?? Self.builtIn(configuration)
    // Room made once: a source is a large value, and growing the array copied each several times.
    sources.reserveCapacity(sources.count + (file?.sources.count ?? 0))
    // By name, so that 100,000 subscriptions cost as many lookups, not their square.
    var positions = Dictionary(
      sources.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    positions.reserveCapacity(sources.capacity)
    for declared in file?.sources ?? [] {
      if let index = positions[declared.name] {
        sources[index] = declared.applied(to: sources[index])
      } else {
        positions[declared.name] = sources.count
        sources.append(declared.source())
      }
    }
    for index in sources.indices {
      if let ttl = configuration.feedTTL(sources[index].name) {
        sources[index].ttl = ttl
        sources[index].ttlIsExplicit = true
      }
    }
    return sources
  }
}
