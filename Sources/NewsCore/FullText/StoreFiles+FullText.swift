extension StoreFiles {
  /// The full texts kept beside the articles.
  public static let fullTexts = StoreFiles(
    owner: "full texts", owns: { $0.hasPrefix(StoreLayout.fullTextPrefix) },
    loss: { _ in
      "the full texts kept in it could not be read (an article shown in full fetches its text "
        + "again; search finds them again once kept)"
    })
}
