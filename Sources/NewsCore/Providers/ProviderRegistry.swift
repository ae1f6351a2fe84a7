/// The providers `news` knows, in the order they are listed; the first is the default.
public struct ProviderRegistry: Sendable {
  /// The providers.
  public var providers: [any Provider]

  /// A registry of `providers` (tests add their own to ``builtIn``).
  public init(_ providers: [any Provider]) {
    self.providers = providers
  }

  /// The built-in providers: one line each.
  public static let builtIn = ProviderRegistry([
    NewsAPIProvider(),
    PageProvider.articles,
    PageProvider.bbc,
  ])

  /// The default provider (`newsapi`).
  public var defaultProvider: any Provider { providers[0] }

  /// Their names, in order.
  public var names: [String] { providers.map(\.name) }

  /// The provider called `name`.
  public func provider(named name: String) -> (any Provider)? {
    providers.first { $0.name == name }
  }

  /// How articles of `name` are laid out (search and bookmark lists mix providers).
  public func layout(of name: String) -> ArticleLayout {
    provider(named: name)?.layout ?? .standard
  }

  /// This registry with `provider` added.
  public func adding(_ provider: any Provider) -> ProviderRegistry {
    ProviderRegistry(providers + [provider])
  }
}
