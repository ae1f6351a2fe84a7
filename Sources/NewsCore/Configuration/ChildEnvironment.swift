/// The environment a program `news` starts (a browser, a player, a hook) gets: its own, less
/// every secret — the store key, the newsapi.org key, and any variable whose name says it holds a
/// password, a secret, a token or a key (a `--password-env` variable such as `READER_PASSWORD`).
public enum ChildEnvironment {
  /// The variables `news` itself reads that hold a secret.
  public static let secretVariables: Set<String> = ["NEWS_STORE_KEY", "NEWSAPI_KEY"]

  /// `environment` without its secrets.
  public static func scrubbed(_ environment: [String: String]) -> [String: String] {
    environment.filter { !isSecret($0.key) }
  }

  /// Whether the variable `name` holds, or may hold, a secret.
  public static func isSecret(_ name: String) -> Bool {
    if secretVariables.contains(name) { return true }
    let upper = name.uppercased()
    return ["PASSWORD", "PASSWD", "SECRET", "TOKEN", "APIKEY", "_KEY"].contains {
      upper.contains($0)
    }
  }
}
