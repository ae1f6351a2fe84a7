extension StoreFiles {
  /// What `news serve` keeps: its password and the numbers it names articles by.
  public static let served = StoreFiles(
    owner: "news serve",
    owns: { name in
      name == StoreLayout.serverLogin || name == StoreLayout.itemNumbersNext
        || name.hasPrefix(StoreLayout.itemNumbersPrefix)
    },
    loss: { name in
      name == StoreLayout.serverLogin
        ? "the password apps sign in with could not be read; set it again"
        : "the item numbers in it could not be read; the articles they named get new numbers, "
          + "which a phone app shows as new items"
    })
}
