extension StoreReport {
  /// Looks at every store file of `configuration`'s data and cache directories, with its key.
  public static func examine(_ configuration: Configuration) throws -> StoreReport {
    let key = try StoreKey.existing(configuration: configuration)
    let paths = configuration.paths
    var directories = [paths.dataDirectory]
    if paths.cacheDirectory != paths.dataDirectory { directories.append(paths.cacheDirectory) }
    return examine(directories, key: key)
  }
}
