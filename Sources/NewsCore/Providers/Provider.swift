import Foundation

/// A source of article lists (`news headlines --from <name>`): its name, the filters it takes,
/// how it fetches a page and how its articles are laid out.
///
/// Adding a provider is one type conforming to this protocol and one line in
/// ``ProviderRegistry/builtIn``; `headlines`, `sync`, the renderers, the completions and the
/// manual take it from there.
public protocol Provider: Sendable {
  /// The name in `--from`, in ids and in the store (`newsapi`).
  var name: String { get }
  /// How its articles are shown.
  var layout: ArticleLayout { get }
  /// The filters of ``TopHeadlinesQuery`` it takes; giving another is a usage error.
  var filters: Set<QueryFilter> { get }
  /// What the configuration lacks for it to be asked (`no NEWSAPI_KEY`), or `nil`.
  func missingRequirement(in configuration: Configuration) -> String?
  /// The list's heading (`Top headlines · us · technology`).
  func heading(for query: TopHeadlinesQuery) -> String
  /// Identifies the list of `query` in the store, so stored lists stand in only for the same one.
  func storageKey(for query: TopHeadlinesQuery) -> String
  /// One page, over the network.
  func fetch(_ query: TopHeadlinesQuery, using context: ProviderContext) async throws
    -> ArticleList
}
