import NewsCore

/// Why `news serve` does not serve.
enum ServeError: NewsError, Equatable {
  /// Asked to listen beyond this machine with no password set.
  case passwordNeeded(address: String)
  /// The address or port cannot be listened on (taken, not this machine's, not allowed).
  case cannotListen(address: String, reason: String)
  /// `--set-password` got no password.
  case noPassword(String)

  var message: String {
    switch self {
    case .passwordNeeded(let address):
      "serving on \(address) lets other machines in, and no password is set: set one with "
        + "'news serve --set-password --user <name>', or listen on 127.0.0.1"
    case .cannotListen(let address, let reason):
      "cannot listen on \(address): \(reason) (choose another with --listen 127.0.0.1:<port>)"
    case .noPassword(let why): "no password set: \(why)"
    }
  }

  var exitCode: ExitCode {
    switch self {
    case .passwordNeeded, .noPassword: .usage
    case .cannotListen: .unavailable
    }
  }
}
