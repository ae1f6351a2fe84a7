import Foundation

extension NewsServices {
  /// Every provider, as `news sources` lists it.
  public func providerStatuses() -> [ProviderStatus] {
    let query = TopHeadlinesQuery(defaults: configuration.queryDefaults)
    let store = try? articleStore()
    return providers.providers.map { provider in
      let url: URL =
        switch provider.name {
        case SourceName.newsAPI: configuration.newsAPIURL
        case SourceName.bbc: configuration.bbcURL
        default: configuration.articlesURL
        }
      let stored = try? store?.listing(for: provider.storageKey(for: query))
      return ProviderStatus(
        name: provider.name, url: url, enabled: isEnabled(provider: provider.name),
        missing: provider.missingRequirement(in: configuration),
        fetchedAt: stored?.listing.fetchedAt)
    }
  }
}
