import Foundation

/// Builds request URLs from a configured base URL, encoding strictly: every byte outside the
/// unreserved set is percent-encoded, so `+`, `&` and `=` in a value cannot change its meaning.
enum URLBuilder {
  /// `base` with `path` appended (base path kept, slashes merged) and the query `items`.
  static func url(_ base: URL, path: String, query items: [(String, String)] = []) -> URL {
    var text = base.absoluteString
    if let fragment = text.firstIndex(of: "#") { text = String(text[..<fragment]) }
    var existingQuery: String?
    if let question = text.firstIndex(of: "?") {
      existingQuery = String(text[text.index(after: question)...])
      text = String(text[..<question])
    }
    while text.hasSuffix("/") { text.removeLast() }
    let suffix = path.hasPrefix("/") || path.isEmpty ? path : "/" + path
    text += suffix
    let encoded = items.map { "\(encode($0.0))=\(encode($0.1))" }
    let query = ([existingQuery].compactMap { $0 }.filter { !$0.isEmpty } + encoded)
      .joined(separator: "&")
    if !query.isEmpty { text += "?" + query }
    return URL(string: text)!
  }

  static func encode(_ value: String) -> String {
    ArticleID.pathSegment(value)
  }
}
