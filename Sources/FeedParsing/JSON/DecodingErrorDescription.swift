/// A short, user-readable account of why a JSON body did not decode.
package enum DecodingErrorDescription {
  package static func describe(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "not valid JSON" }
    switch error {
    case .keyNotFound(let key, let context):
      return "missing field '\(path(context.codingPath + [key]))'"
    case .typeMismatch(let type, let context):
      return "field '\(path(context.codingPath))' is not \(describe(type))"
    case .valueNotFound(let type, let context):
      return "field '\(path(context.codingPath))' is null, expected \(describe(type))"
    case .dataCorrupted(let context):
      return context.codingPath.isEmpty
        ? "not valid JSON" : "field '\(path(context.codingPath))' is invalid"
    @unknown default:
      return "not valid JSON"
    }
  }

  private static func path(_ keys: [any CodingKey]) -> String {
    var out = ""
    for key in keys {
      if let index = key.intValue {
        out += "[\(index)]"
      } else {
        out += (out.isEmpty ? "" : ".") + key.stringValue
      }
    }
    return out.isEmpty ? "(top level)" : out
  }

  private static func describe(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: return "a string"
    case is Int.Type, is Double.Type: return "a number"
    case is Bool.Type: return "a boolean"
    default:
      let name = String(describing: type)
      return name.hasPrefix("Array") ? "a list" : "an object"
    }
  }
}
