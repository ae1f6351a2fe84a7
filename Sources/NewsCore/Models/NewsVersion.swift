/// The program's version, shown by `news --version` and sent in `User-Agent`.
public enum NewsVersion {
  /// Semantic version of this build.
  public static let current = "0.1.0"
}
