extension StoreFiles {
  /// The record of downloads.
  public static let downloads = StoreFiles(
    owner: "downloads", owns: { $0 == StoreLayout.downloads },
    loss: { _ in
      "the record of downloads could not be read (files already downloaded stay where they "
        + "are; downloading again finds them by name, parts start over)"
    })
}
