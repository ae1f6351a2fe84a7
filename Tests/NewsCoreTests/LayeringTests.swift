import Foundation
import Testing

/// The layers of NewsCore, checked on the source (#32): the store knows nothing of accounts, the
/// configuration or feeds; a model does not reach a registry; HTTP knows no feed type.
@Suite("layers: what each folder of NewsCore may name")
struct LayeringTests {
  static let core = StoreLayoutTests.sources.appendingPathComponent("NewsCore")

  /// The types declared at the top level of the Swift files under `folder` of NewsCore, whatever
  /// their access (`package` ones too); a nested type is named through its outer one.
  static func types(in folder: String, of module: String = "NewsCore") throws -> Set<String> {
    let declaration = try NSRegularExpression(
      pattern:
        #"^(?:public |package |internal |private |fileprivate )*(?:final )?(?:struct|enum|class|protocol|actor|typealias) ([A-Z][A-Za-z0-9]*)"#,
      options: [.anchorsMatchLines])
    var names = Set<String>()
    for file in try swiftFiles(in: folder, of: module) {
      let text = try String(contentsOf: file, encoding: .utf8)
      for match in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
        if let range = Range(match.range(at: 1), in: text) { names.insert(String(text[range])) }
      }
    }
    return names
  }

  static func swiftFiles(in folder: String, of module: String = "NewsCore") throws -> [URL] {
    let root = StoreLayoutTests.sources.appendingPathComponent(module).appendingPathComponent(
      folder)
    let paths = try #require(FileManager.default.enumerator(atPath: root.path))
      .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
    return paths.map { root.appendingPathComponent($0) }
  }

  /// Lines of the files under `folder` (not comments, not strings) that name one of `types`.
  static func uses(of types: Set<String>, in folder: String, of module: String = "NewsCore")
    throws -> [String]
  {
    let literal = try NSRegularExpression(pattern: #""(?:[^"\\]|\\.)*""#)
    var found: [String] = []
    for file in try swiftFiles(in: folder, of: module) {
      let text = try String(contentsOf: file, encoding: .utf8)
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
        // What a string says is no use of a type.
        let code = literal.stringByReplacingMatches(
          in: String(line), range: NSRange(line.startIndex..., in: line), withTemplate: "\"\"")
        let words = Set(code.split { !$0.isLetter && !$0.isNumber }.map(String.init))
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

  /// A module's folders, bottom to top, as docs/development.md's table writes them.
  static func order(of module: String) throws -> [String] {
    let page = try String(
      contentsOf: StoreLayoutTests.sources.deletingLastPathComponent()
        .appendingPathComponent("docs/development.md"), encoding: .utf8)
    let section = try #require(
      page.components(separatedBy: "### \(module)'s folders").dropFirst().first)
    return section.components(separatedBy: "\n### ")[0].split(separator: "\n").compactMap { line in
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count >= 2, Int(cells[0]) != nil else { return nil }
      return cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
    }
  }

  @Test(
    "every folder names no type of a folder above it in docs/development.md's order",
    arguments: ["NewsCore", "FeedParsing", "NewsCLI"])
  func folderOrder(module: String) throws {
    let order = try Self.order(of: module)
    let root = StoreLayoutTests.sources.appendingPathComponent(module)
    let folders = try FileManager.default.contentsOfDirectory(atPath: root.path).filter {
      var directory: ObjCBool = false
      return FileManager.default.fileExists(
        atPath: root.appendingPathComponent($0).path, isDirectory: &directory)
        && directory.boolValue
    }
    #expect(Set(order) == Set(folders), "the table and the folders differ")
    #expect(order.count == Set(order).count)
    let declared = try order.map { try Self.types(in: $0, of: module) }
    for (level, folder) in order.enumerated() {
      var above = Set<String>()
      for higher in declared[(level + 1)...] { above.formUnion(higher) }
      above.subtract(declared[level])
      let found = try Self.uses(of: above, in: folder, of: module)
      #expect(found.isEmpty, "\(module)/\(folder) names a folder above it: \(found.prefix(5))")
    }
  }

  @Test(
    "JSON documents are built in NewsCLI's Rendering only (config.json's entries and news serve's protocols aside)"
  )
  func documentsInRendering() throws {
    let sources = StoreLayoutTests.sources
    let paths = try #require(FileManager.default.enumerator(atPath: sources.path))
      .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
    #expect(paths.count > 100)
    // `news sources add` writes a source's entry into config.json: a file, not an output.
    // `news serve` answers in the Google Reader and Fever APIs' shapes: protocols, not outputs.
    // `news import newsboat` translates keys and colours into config.json's entries too.
    let allowed = [
      "NewsCLI/Rendering/", "NewsCore/Subscriptions/", "NewsServer/",
      "NewsCLI/Shape/NewsboatShape.swift",
    ]
    var found: [String] = []
    for path in paths where !allowed.contains(where: { path.hasPrefix($0) }) {
      let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
      if text.contains(".object([") { found.append(path) }
    }
    #expect(found.isEmpty, "JSON built outside Rendering: \(found)")
  }

  @Test("text goes out through Rendering: no console.out( outside it, one Printer a command")
  func textInRendering() throws {
    let sources = StoreLayoutTests.sources
    let paths = try #require(FileManager.default.enumerator(atPath: sources.path))
      .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") && $0.hasPrefix("NewsCLI/") }
    #expect(paths.count > 50)
    var found: [String] = []
    for path in paths where !path.hasPrefix("NewsCLI/Rendering/") {
      let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
      for line in text.split(separator: "\n") {
        let code = line.trimmingCharacters(in: .whitespaces)
        if !code.hasPrefix("//"), code.contains("console.out(") { found.append("\(path): \(code)") }
      }
    }
    #expect(found.isEmpty, "standard output written outside Rendering: \(found)")
  }

  @Test("no message in NewsCore or FeedParsing names a command: advice is a value NewsCLI words")
  func adviceWordedInCommandLine() throws {
    let sources = StoreLayoutTests.sources
    let paths = try #require(FileManager.default.enumerator(atPath: sources.path))
      .compactMap { $0 as? String }
      .filter { $0.hasSuffix(".swift") && !$0.hasPrefix("NewsCLI/") && !$0.hasPrefix("news/") }
    #expect(paths.count > 100)
    let commands = try Regex(
      #"news (headlines|show|feed|sync|search|bookmarks?|read|unread|sources|accounts|doctor|"#
        + #"download|play|open|send|keys|browse|ignore|help)\b"#)
    var found: [String] = []
    for path in paths {
      let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
      for line in text.split(separator: "\n") {
        let code = line.trimmingCharacters(in: .whitespaces)
        guard !code.hasPrefix("//"), code.contains("\""), code.contains(commands) else { continue }
        found.append("\(path): \(code)")
      }
    }
    #expect(found.isEmpty, "a command named outside NewsCLI: \(found)")
  }

  @Test("every try? left in NewsCore is in docs/development.md's list, with its count")
  func documentedTries() throws {
    let page = try String(
      contentsOf: StoreLayoutTests.sources.deletingLastPathComponent()
        .appendingPathComponent("docs/development.md"), encoding: .utf8)
    let section = try #require(
      page.components(separatedBy: "### The `try?` left in NewsCore").dropFirst().first)
    // Rows name one or more files (a folder once, then names in it) and their count together.
    var documented: [Set<String>: Int] = [:]
    for line in section.components(separatedBy: "\n### ")[0].split(separator: "\n") {
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count >= 3, let count = Int(cells[1]) else { continue }
      var folder = ""
      var files = Set<String>()
      for name in cells[0].split(separator: ",").map({
        $0.trimmingCharacters(in: CharacterSet(charactersIn: " `"))
      }) {
        if name.contains("/") {
          folder = String(name[..<(name.lastIndex(of: "/") ?? name.startIndex)])
          files.insert(name)
        } else {
          files.insert(folder + "/" + name)
        }
      }
      documented[files] = count
    }
    #expect(!documented.isEmpty)
    let pattern = try NSRegularExpression(pattern: #"\btry\?"#)
    var counts: [String: Int] = [:]
    for file in try Self.swiftFiles(in: "") {
      let text = try String(contentsOf: file, encoding: .utf8)
      let code = text.split(separator: "\n").filter {
        !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//")
      }.joined(separator: "\n")
      let found = pattern.numberOfMatches(in: code, range: NSRange(code.startIndex..., in: code))
      let relative = String(file.path.dropFirst(Self.core.path.count + 1))
      if found > 0 { counts[relative] = found }
    }
    for (files, count) in documented {
      let actual = files.map { counts[$0] ?? 0 }.reduce(0, +)
      #expect(actual == count, "\(files.sorted()): \(actual) try? in the code, \(count) documented")
    }
    let listed = documented.keys.reduce(Set<String>()) { $0.union($1) }
    let undocumented = Set(counts.keys).subtracting(listed)
    #expect(
      undocumented.isEmpty, "try? without a row in docs/development.md: \(undocumented.sorted())")
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
