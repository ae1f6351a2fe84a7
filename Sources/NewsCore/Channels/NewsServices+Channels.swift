extension NewsServices {
  /// The home screen's channels: All unread, the providers whose requirement is met (newsapi.org
  /// needs its key) and that are enabled, the enabled feed sources but the hidden ones, a channel
  /// for each of their tags (hidden ones' too), the bookmarks. `provider` and `source` are kept even when they would be left out
  /// (the reader asked for them by name).
  public func channels(
    providers registry: ProviderRegistry, including provider: String? = nil,
    source: String? = nil
  ) -> [Channel] {
    var channels: [Channel] = [.allUnread]
    channels += registry.providers.filter {
      ($0.missingRequirement(in: configuration) == nil && isEnabled(provider: $0.name))
        || $0.name == provider
    }.map(Channel.provider)
    let sources = feedSources().filter { $0.enabled || $0.name == source }
    channels += sources.filter { !$0.hidden || $0.name == source }.map(Channel.feed)
    channels += Set(sources.flatMap(\.tags)).sorted().map(Channel.tag)
    channels.append(.bookmarks)
    return channels
  }
}
