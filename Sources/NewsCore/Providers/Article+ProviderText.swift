extension Article {
  /// Whether the article's text may hold HTML, to be cleaned when shown: that of the built-in
  /// providers (newsapi.org, the articles API, BBC). A feed source's text was made plain when it
  /// was read, and is shown as it is (a title about the `<blink>` tag keeps it).
  public var textMayHoldHTML: Bool { ProviderRegistry.builtIn.names.contains(provider) }
}
