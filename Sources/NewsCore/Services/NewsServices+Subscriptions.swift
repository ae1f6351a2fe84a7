extension NewsServices {
  /// Keeps what `news sources add` fetched for the source it added, as a refresh keeps it (the
  /// cache entry, the articles in the store), so that it is listed, searchable and "fetched"
  /// at once; `nil` when nothing was fetched (the URL was subscribed already).
  ///
  /// - Throws: what opening the stores throws (a wrong key: exit 74).
  public func keep(_ added: SubscriptionService.Added) async throws -> FeedSourceReport? {
    guard let response = added.response else { return nil }
    var source = FeedSource(
      name: added.name, url: added.url, ttl: .seconds(added.ttl ?? 15 * 60),
      adapter: added.adapter ?? SyndicationAdapter())
    source.maxItems = added.maxItems
    return try await feed().keep(response, for: source)
  }

  /// Removes the source `name`: an account's feed (`home/hacker-news`) is unsubscribed on its
  /// server and forgotten here (`true`); any other is taken out of `config.json` (`false`).
  public func removeSource(_ name: String) async throws -> Bool {
    if accountSources().contains(where: { $0.name == name }) || name.contains("/") {
      try await accounts().unsubscribe(source: name)
      return true
    }
    try subscriptions().remove(name)
    return false
  }
}
