import Foundation

extension StoreKey {
  /// Loads the key — `NEWS_STORE_KEY`, else the file `key` in the configuration directory —
  /// creating the key file (from `randomBytes`) if there is none.
  public static func load(
    configuration: Configuration,
    randomBytes: @Sendable (Int) -> [UInt8]
  ) throws -> StoreKey {
    if let key = try existing(configuration: configuration) { return key }
    return try loadFile(keyFile(configuration), randomBytes: randomBytes)
  }

  /// The key from `NEWS_STORE_KEY` or the key file, or `nil` when there is none yet (nothing is
  /// created: `news doctor` reports this rather than making a key).
  public static func existing(configuration: Configuration) throws -> StoreKey? {
    if let encoded = configuration.storeKey {
      return try StoreKey.encoded(encoded, source: "NEWS_STORE_KEY")
    }
    return try read(keyFile(configuration))
  }

  private static func keyFile(_ configuration: Configuration) -> URL {
    configuration.paths.configDirectory.appendingPathComponent("key")
  }
}
