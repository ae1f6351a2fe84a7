extension StoreFiles {
  /// The accounts file, and each account's state, items and queue.
  public static let accounts = StoreFiles(
    owner: "the accounts on your servers",
    owns: { name in name == StoreLayout.accounts || name.hasPrefix(StoreLayout.accountPrefix) },
    loss: { name in
      if name == StoreLayout.accounts {
        return "the accounts and passwords in it could not be read; add them again (their "
          + "stored articles, bookmarks and read marks stay)"
      }
      if name.hasSuffix("-outbox") {
        return "the marks it queued for the account's server could not be read and will not be "
          + "sent"
      }
      if name.hasSuffix("-items") {
        return "the map of the account's items could not be read; the next sync makes it again "
          + "(the server's read and saved state then applies to every item)"
      }
      return "the account's state could not be read; the next sync reads its feeds again"
    })
}
