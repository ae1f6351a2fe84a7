import Foundation
import Testing

/// The layers of NewsCore, checked on the source (#32): the store knows nothing of accounts, the
/// configuration or feeds; a model does not reach a registry; HTTP knows no feed type.
@Suite("layers: what each folder of NewsCore may name")
struct LayeringTests {
  static let core = StoreLayoutTests.sources.appendingPathComponent("NewsCore")

  /// The types declared in the Swift files under `folder` of NewsCore.
  static func types(in folder: String) throws -> Set<String> {
    let declaration = try NSRegularExpression(
      pattern:
        #"^\s*(?:public |internal |private |fileprivate )*(?:final )?(?:struct|enum|class|protocol|actor) ([A-Z][A-Za-z0-9]*)"#,
      options: [.anchorsMatchLines])
    var names = Set<String>()
    for file in try swiftFiles(in: folder) {
      let text = try String(contentsOf: file, encoding: .utf8)
      for match in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
        if let range = Range(match.range(at: 1), in: text) { names.insert(String(text[range])) }
      }
    }
    return names
  }

  static func swiftFiles(in folder: String) throws -> [URL] {
    let root = core.appendingPathComponent(folder)
    let paths = try #require(FileManager.default.enumerator(atPath: root.path))
      .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
    return paths.map { root.appendingPathComponent($0) }
  }

  /// Lines of the files under `folder` (not comments) that name one of `types`.
  static func uses(of types: Set<String>, in folder: String) throws -> [String] {
    var found: [String] = []
    for file in try swiftFiles(in: folder) {
      let text = try String(contentsOf: file, encoding: .utf8)
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
        let words = Set(line.split { !$0.isLetter && !$0.isNumber }.map(String.init))
        if let type = words.intersection(types).sorted().first {
          found.append("\(file.lastPathComponent):\(number + 1): \(type)")
        }
      }
    }
    return found
  }

  @Test(
    "a folder names no type of the layers above it",
    arguments: [
      ("Store", ["Accounts", "Configuration", "Feed", "Services", "Lists", "Providers"]),
      ("HTTP", ["Feed", "Accounts", "Store", "Lists", "Providers"]),
      ("Models", ["Providers", "Services", "Lists", "Accounts"]),
    ])
  func layers(folder: String, above: [String]) throws {
    var types = Set<String>()
    for layer in above { types.formUnion(try Self.types(in: layer)) }
    // Declared in both (an extension's subject is named where it is declared): only the
    // folder's own types count as its own.
    types.subtract(try Self.types(in: folder))
    #expect(!types.isEmpty)
    let found = try Self.uses(of: types, in: folder)
    #expect(found.isEmpty, "\(folder) names: \(found.joined(separator: ", "))")
  }

  @Test("FeedParsing imports Foundation alone: the parser cannot see the store or the network")
  func feedParsing() throws {
    let root = StoreLayoutTests.sources.appendingPathComponent("FeedParsing")
    let paths = try #require(FileManager.default.enumerator(atPath: root.path))
      .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
    #expect(paths.count > 10)
    var imports = Set<String>()
    for path in paths {
      let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
      for line in text.split(separator: "\n") {
        let words = line.split(separator: " ")
        if let index = words.firstIndex(of: "import"), index < words.count - 1,
          words[..<index].allSatisfy({ $0.hasPrefix("@") || $0.isEmpty })
        {
          imports.insert(String(words[index + 1]))
        }
      }
    }
    #expect(imports == ["Foundation"])
  }

  @Test("NewsCLI swallows no failure with try? and trusts nothing with a force unwrap")
  func commandLine() throws {
    let root = StoreLayoutTests.sources.appendingPathComponent("NewsCLI")
    let paths = try #require(FileManager.default.enumerator(atPath: root.path))
      .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
    #expect(paths.count > 20)
    // Outside comments and string literals: `try?`, `try!`, `as!` and `x!` (not `!=`).
    let forced = try NSRegularExpression(pattern: #"try[?!]|as!|[A-Za-z0-9_)\]]!(?!=)"#)
    let literal = try NSRegularExpression(pattern: #""(?:[^"\\]|\\.)*""#)
    var found: [String] = []
    for path in paths {
      let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        var code = String(line)
        if let comment = code.range(of: "//") { code = String(code[..<comment.lowerBound]) }
        code = literal.stringByReplacingMatches(
          in: code, range: NSRange(code.startIndex..., in: code), withTemplate: "\"\"")
        if forced.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)) != nil {
          found.append("\(path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
        }
      }
    }
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
  }
}
