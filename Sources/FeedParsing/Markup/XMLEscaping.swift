/// Text as XML must hold it: `&`, `<` and `>` (and `"`, in an attribute's value) as references,
/// and the control characters XML 1.0 cannot hold at all left out (tab and line ends stay).
package enum XMLEscaping {
  /// `text` escaped for markup; `quotes` for an attribute value in double quotes.
  package static func escaped(_ text: String, quotes: Bool) -> String {
    guard
      text.unicodeScalars.contains(where: {
        $0 == "<" || $0 == "&" || $0 == ">" || (quotes && $0 == "\"")
          || ($0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r")
      })
    else { return text }
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"" where quotes: out += "&quot;"
      case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
      default:
        if scalar.value >= 0x20 { out.unicodeScalars.append(scalar) }
      }
    }
    return out
  }
}
