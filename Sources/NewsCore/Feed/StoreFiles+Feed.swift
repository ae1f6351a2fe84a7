extension StoreFiles {
  /// What a feed's items carry beside them: their enclosures and when each was first seen.
  public static let feedRecords = StoreFiles(
    owner: "the feeds' records",
    owns: { name in
      name.hasPrefix(StoreLayout.enclosuresPrefix) || name == StoreLayout.arrivals
        || name.hasPrefix(StoreLayout.arrivalsPrefix)
    },
    loss: { name in
      name.hasPrefix(StoreLayout.enclosuresPrefix)
        ? "the episodes and media listed in it could not be read (the next fetch of their feeds "
          + "lists them again)"
        : "the first-seen times in it could not be read (those items count as first seen at "
          + "their next sighting)"
    })
}
