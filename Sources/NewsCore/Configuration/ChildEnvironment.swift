/// The environment a program `news` starts gets. A browser or a player (what the user runs
/// by hand) gets the program's own, less every secret (``scrubbed(_:)``). A hook or an article
/// command (what runs unattended, for each item of a cron job) gets only what an allow-list
/// names (``forHooks(_:passing:)``).
public enum ChildEnvironment {
  /// The variables `news` itself reads that hold a secret.
  public static let secretVariables: Set<String> = ["NEWS_STORE_KEY", "NEWSAPI_KEY"]

  /// `environment` without its secrets.
  public static func scrubbed(_ environment: [String: String]) -> [String: String] {
    environment.filter { !isSecret($0.key, value: $0.value) }
  }

  /// What a hook gets of `environment`: `PATH`, `HOME`, `USER`, `LOGNAME`, `SHELL`, `TERM`,
  /// `TZ`, `TMPDIR`, `LANG`, `LC_*`, `XDG_*` and what a desktop notification needs (`DISPLAY`,
  /// `WAYLAND_DISPLAY`, `DBUS_SESSION_BUS_ADDRESS`, `XAUTHORITY`), plus the variables `passing` names
  /// (`"hookEnv"` in `config.json`). `news`'s own secrets are never passed, named or not; a
  /// variable of the allow-list whose name says secret or whose value carries a URL's password
  /// (``isSecret(_:value:)``: `XDG_API_TOKEN`, `LC_SECRET_KEY`, `LANG=http://u:pw@host/`) is not
  /// passed either. A variable `passing` names is passed as it is: naming it is the user's choice.
  public static func forHooks(_ environment: [String: String], passing: [String] = [])
    -> [String: String]
  {
    let named = Set(passing)
    return environment.filter { name, value in
      guard !secretVariables.contains(name) else { return false }
      if named.contains(name) { return true }
      guard hookVariables.contains(name) || hookPrefixes.contains(where: { name.hasPrefix($0) })
      else { return false }
      return !isSecret(name, value: value)
    }
  }

  /// The variables every hook gets (``forHooks(_:passing:)``).
  public static let hookVariables: Set<String> = [
    "PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "TZ", "TMPDIR", "LANG", "DISPLAY",
    "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "XAUTHORITY",
  ]
  /// The families of variables every hook gets.
  public static let hookPrefixes = ["LC_", "XDG_"]

  /// Whether the variable `name` holds, or may hold, a secret: `news`'s own, any whose name
  /// says password, passphrase, pass, pwd, secret, token, credential, cookie, auth or key, and
  /// any whose value is a URL with a user and password in it.
  public static func isSecret(_ name: String, value: String = "") -> Bool {
    if secretVariables.contains(name) { return true }
    let upper = name.uppercased()
    if !notSecret.contains(upper),
      ["PASS", "PWD", "SECRET", "TOKEN", "CREDENTIAL", "COOKIE", "AUTH", "KEY"].contains(where: {
        upper.contains($0)
      })
    {
      return true
    }
    return hasUserinfo(value)
  }

  /// Names that look like a secret's and are not: working directories, paths to sockets and
  /// to X's cookie file (which a browser needs).
  static let notSecret: Set<String> = ["PWD", "OLDPWD", "XAUTHORITY", "SSH_AUTH_SOCK"]

  /// Whether `value` is a URL carrying a password (`scheme://user:password@host`).
  static func hasUserinfo(_ value: String) -> Bool {
    guard let scheme = value.range(of: "://") else { return false }
    let rest = value[scheme.upperBound...]
    let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    guard let at = authority.lastIndex(of: "@") else { return false }
    return authority[..<at].contains(":")
  }
}
