import Foundation

extension NewsServices {
  /// Every provider, as `news sources` lists it.
  public func providerStatuses() -> [ProviderStatus] {
    let query = TopHeadlinesQuery(defaults: configuration.queryDefaults)
    // A store that cannot be opened (a wrong key) or read is said on each row, never taken
    // for "never fetched".
    let store: Result<ArticleStore, any Error> = Result { try articleStore() }
    return providers.providers.map { provider in
      let url: URL =
        switch provider.name {
        case SourceName.newsAPI: configuration.newsAPIURL
        case SourceName.bbc: configuration.bbcURL
        default: configuration.articlesURL
        }
      var status = ProviderStatus(
        name: provider.name, url: url, enabled: isEnabled(provider: provider.name),
        missing: provider.missingRequirement(in: configuration), fetchedAt: nil)
      do {
        status.fetchedAt = try store.get().listing(for: provider.storageKey(for: query))?
          .listing.fetchedAt
      } catch {
        status.error = (error as? any NewsError)?.message ?? "\(error)"
      }
      return status
    }
  }
}
