extension NewsServices {
  /// Keeps what `news sources add` fetched for the source it added, as a refresh keeps it (the
  /// cache entry, the articles in the store), so that it is listed, searchable and "fetched"
  /// at once; `nil` when nothing was fetched (the URL was subscribed already).
  ///
  /// - Throws: what opening the stores throws (a wrong key: exit 74).
  public func keep(_ added: SubscriptionService.Added) async throws -> FeedSourceReport? {
    guard let response = added.response else { return nil }
    let source = FeedSource(
      name: added.name, url: added.url, ttl: .seconds(added.ttl ?? 15 * 60),
      adapter: SyndicationAdapter())
    return try await feed().keep(response, for: source)
  }
}
