import Foundation

/// The feed's sources: the built-in ones, then those of `config.json`, then TTLs from the
/// environment (`NEWS_FEED_<NAME>_TTL`, seconds), strongest last.
public enum FeedRegistry {
  /// The built-in sources: one line each.
  public static func builtIn(_ configuration: Configuration) -> [FeedSource] {
    let urls = configuration.feedURLs
    return [
      FeedSource(name: "a", url: urls["a"]!, ttl: .seconds(5 * 60), adapter: StoriesAdapter()),
      FeedSource(name: "b", url: urls["b"]!, ttl: .seconds(30 * 60), adapter: InnerDataAdapter()),
      FeedSource(name: "c", url: urls["c"]!, ttl: .seconds(60 * 60), adapter: TopLineAdapter()),
    ]
  }

  /// Every source, in order: built-in ones (possibly changed by the config file), then the config
  /// file's new ones.
  ///
  /// - Parameter builtIn: the sources defined in code; tests pass extra ones.
  public static func sources(
    _ configuration: Configuration, builtIn: [FeedSource]? = nil
  ) throws -> [FeedSource] {
    var sources = builtIn ?? Self.builtIn(configuration)
    if let file = try FeedConfigFile.load(configuration) {
      for declared in file.sources {
        if let index = sources.firstIndex(where: { $0.name == declared.name }) {
          sources[index] = declared.applied(to: sources[index])
        } else {
          sources.append(try declared.source(file: file.path))
        }
      }
    }
    for index in sources.indices {
      let variable =
        "NEWS_FEED_\(sources[index].name.uppercased().replacingOccurrences(of: "-", with: "_"))_TTL"
      if configuration.values[variable] != nil {
        let seconds = try configuration.number(
          variable, default: 0, in: 0...31_536_000, expected: "a number of seconds, 0 or more")
        sources[index].ttl = .milliseconds(Int(seconds * 1000))
      }
    }
    return sources
  }
}
