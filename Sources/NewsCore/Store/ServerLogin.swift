import Foundation

/// The user and password that `news serve` asks of the apps signing in, as kept in the encrypted
/// store (`serve-login`): the password salted and stretched (PBKDF2-HMAC-SHA256), never as given;
/// the Fever key (the MD5 of `user:password`, which that protocol fixes) only when Fever is
/// served; a random secret that signs the tokens handed to signed-in apps.
public struct ServerLogin: Codable, Sendable, Equatable {
  /// The user name.
  public var user: String
  /// The random salt.
  var salt: [UInt8]
  /// PBKDF2's rounds.
  var iterations: Int
  /// PBKDF2 of the password.
  var derived: [UInt8]
  /// `md5("user:password")`, lower-case hex, when Fever is served.
  public var feverKey: String?
  /// Signs the tokens (a new password makes a new one: every earlier token stops working).
  var secret: [UInt8]

  /// The login of `user` with `password`, stretched in `iterations` rounds (OWASP's count
  /// unless a test asks fewer); with `fever`, the Fever key kept too.
  public init(
    user: String, password: String, fever: Bool,
    iterations: Int = ServerLogin.recommendedIterations,
    random: @Sendable (Int) -> [UInt8] = SecureRandom.bytes
  ) {
    self.user = user
    salt = random(16)
    self.iterations = iterations
    derived = PBKDF2.derive(password: Array(password.utf8), salt: salt, iterations: iterations)
    feverKey = fever ? MD5.hex(user + ":" + password) : nil
    secret = random(32)
  }

  /// OWASP's count for PBKDF2-HMAC-SHA256.
  public static let recommendedIterations = PBKDF2.recommendedIterations

  /// Whether `user` and `password` are this login's. The password is stretched whatever the
  /// user, so a wrong user costs the time of a wrong password; both compared in constant time.
  public func accepts(user: String, password: String) -> Bool {
    let attempt = PBKDF2.derive(password: Array(password.utf8), salt: salt, iterations: iterations)
    let passwordMatches = PBKDF2.constantTimeEqual(attempt, derived)
    let userMatches = PBKDF2.constantTimeEqual(
      SHA256.digest(Array(user.utf8)), SHA256.digest(Array(self.user.utf8)))
    return passwordMatches && userMatches
  }

  /// Whether `key` is the Fever key (none kept: never).
  public func acceptsFever(key: String) -> Bool {
    guard let feverKey else { return false }
    return PBKDF2.constantTimeEqual(Array(key.lowercased().utf8), Array(feverKey.utf8))
  }

  /// The token for `purpose` (`auth`, `edit`): the secret's HMAC of it, 40 hex digits.
  public func token(_ purpose: String) -> String {
    SHA256.hmac(key: secret, Array((purpose + "\0" + user).utf8)).prefix(20)
      .map { String(format: "%02x", $0) }.joined()
  }

  /// Whether `candidate` is the token for `purpose`, compared in constant time.
  public func accepts(token candidate: String, for purpose: String) -> Bool {
    PBKDF2.constantTimeEqual(Array(candidate.utf8), Array(token(purpose).utf8))
  }
}

extension ArticleStore {
  /// The login of `news serve`, if one was set.
  public func serverLogin() throws -> ServerLogin? {
    try store.read(ServerLogin.self, name: StoreLayout.serverLogin)
  }

  /// Keeps `login` as `news serve`'s (the earlier one, and every token it signed, replaced).
  public func setServerLogin(_ login: ServerLogin) throws {
    try store.write(login, name: StoreLayout.serverLogin)
  }
}
