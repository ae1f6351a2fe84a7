/// Something is wrong with the configuration: the environment, `.env`, a key file or `config.json`.
public enum ConfigurationError: NewsError, Equatable {
  /// No newsapi.org key was given.
  case missingAPIKey(lookedIn: [String])
  /// A variable holds a value that cannot be used; `expected` says what would work.
  case invalidValue(variable: String, value: String, expected: String)
  /// A variable holds a secret that cannot be used; the secret itself is never repeated.
  case invalidSecret(variable: String, reason: String)
  /// A file named by a variable could not be read.
  case unreadableFile(variable: String, path: String, reason: String)
  /// A line of a `.env` file is not `KEY=VALUE`.
  case dotEnvSyntax(file: String, line: Int)
  /// `config.json` is not what it should be: the file, the source and the field are named.
  case invalidConfigFile(file: String, source: String?, field: String, problem: String)

  public var message: String {
    switch self {
    case .missingAPIKey(let places):
      let looked =
        places.isEmpty ? "" : " (looked in the environment, " + places.joined(separator: ", ") + ")"
      return
        "NEWSAPI_KEY is not set\(looked): get a key at https://newsapi.org/register and put it in "
        + "a .env (see .env.example) or in a file named by NEWSAPI_KEY_FILE"
    case .invalidValue(let variable, let value, let expected):
      return "\(variable)='\(value)' is not valid: expected \(expected)"
    case .invalidSecret(let variable, let reason):
      return "\(variable) is not valid: \(reason)"
    case .unreadableFile(let variable, let path, let reason):
      // Named by a variable only when one was set: the default place is said as a path alone.
      return "cannot read \(path)\(variable.isEmpty ? "" : " (named by \(variable))"): \(reason)"
    case .dotEnvSyntax(let file, let line):
      return "\(file) line \(line): expected KEY=VALUE (see .env.example)"
    case .invalidConfigFile(let file, nil, ConfigNode.topLevel, let problem):
      // The file as a whole: `config.json is not valid JSON (line 2, column 3)`.
      return "\(file) \(problem)"
    case .invalidConfigFile(let file, let source, let field, let problem):
      let place = source.map { "source '\($0)', " } ?? ""
      return "\(file): \(place)field '\(field)' \(problem)"
    }
  }

  public var exitCode: ExitCode { .configuration }
}
