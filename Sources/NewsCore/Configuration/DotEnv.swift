import FeedParsing

/// Reads `.env` files: `KEY=VALUE` lines, `#` comments, optional `export `, optional quotes.
public enum DotEnv {
  /// Parses the text of a `.env` file (LF, CRLF or CR line ends, a byte-order mark or none).
  ///
  /// Values in double quotes understand `\n`, `\t`, `\"` and `\\`; values in single quotes are taken
  /// literally; unquoted values end at ` #` and are trimmed. A line that is not `KEY=VALUE` throws
  /// ``ConfigurationError/dotEnvSyntax(file:line:)`` rather than being skipped silently.
  public static func parse(_ text: String, file: String = ".env") throws(ConfigurationError)
    -> [String: String]
  {
    var values: [String: String] = [:]
    for (number, rawLine) in text.textFileLines.enumerated() {
      var line = rawLine.trimmingWhitespace()
      if line.isEmpty || line.hasPrefix("#") { continue }
      if line.hasPrefix("export ") { line = line.dropFirst("export ".count).trimmingWhitespace() }
      guard let equals = line.firstIndex(of: "=") else {
        throw .dotEnvSyntax(file: file, line: number + 1)
      }
      let key = String(line[..<equals].trimmingWhitespace())
      guard isValidKey(key),
        let value = parseValue(line[line.index(after: equals)...].trimmingWhitespace())
      else {
        throw .dotEnvSyntax(file: file, line: number + 1)
      }
      values[key] = value
    }
    return values
  }

  private static func isValidKey(_ key: String) -> Bool {
    guard let first = key.unicodeScalars.first, first == "_" || first.isASCIILetter else {
      return false
    }
    return key.unicodeScalars.allSatisfy { $0 == "_" || $0.isASCIILetter || $0.isASCIIDigit }
  }

  private static func parseValue(_ raw: Substring) -> String? {
    guard let quote = raw.first, quote == "\"" || quote == "'" else {
      if let comment = raw.firstRange(of: " #") {
        return String(raw[..<comment.lowerBound].trimmingWhitespace())
      }
      return String(raw)
    }
    var value = ""
    var index = raw.index(after: raw.startIndex)
    while index < raw.endIndex {
      let character = raw[index]
      if character == quote {
        let rest = raw[raw.index(after: index)...].trimmingWhitespace()
        return rest.isEmpty || rest.hasPrefix("#") ? value : nil
      }
      if quote == "\"", character == "\\", raw.index(after: index) < raw.endIndex {
        index = raw.index(after: index)
        switch raw[index] {
        case "n": value.append("\n")
        case "t": value.append("\t")
        case "r": value.append("\r")
        default: value.append(raw[index])
        }
      } else {
        value.append(character)
      }
      index = raw.index(after: index)
    }
    return nil
  }
}
