import Foundation
import Testing

@testable import FeedParsing
@testable import NewsCore

@Suite("store file names live in StoreLayout only, source names in SourceName only")
struct StoreLayoutTests {
  /// `Sources/`, found from this file's place in the repository.
  static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")

  @Test("no Swift file but StoreLayout.swift spells a store file name (the key check aside)")
  func namesInOnePlace() throws {
    let everywhere = [
      #""(keycheck|segments|listings|last-listing|read-log|revalidated|backoff)""#,
      // (`--feed-title`, an option of `sources set`, names no file.)
      #""(feed|listing|seg|read|account|articles)-(?!title")"#,
    ].map { try! NSRegularExpression(pattern: $0) }
    // `read` and `bookmarks` are command names too: as file names they are looked for where
    // files are named (NewsCore, which alone opens the store).
    let inCore = try NSRegularExpression(
      pattern: #"(name: |update\(|remove\(|readBytes\(|exists\()"(bookmarks|read|accounts)""#)
    // The generic store (Storage/) names the one file it owns, the key check: it knows no
    // feature's, and StoreLayout takes that name from it.
    let found = try Self.lines(
      except: [
        "NewsCore/Store/StoreLayout.swift", "NewsCore/Storage/EncryptedStore+KeyCheck.swift",
      ]
    ) { file in
      file.hasPrefix("NewsCore/") ? everywhere + [inCore] : everywhere
    }
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
  }

  @Test(
    "no Swift file but SourceName.swift spells a provider's, a list's or a built-in source's name")
  func sourceNamesInOnePlace() throws {
    let names = "newsapi|bbc|articles|bookmarks|search|feed|url|accounts"
    let everywhere = [
      // An id's prefix, or a name given, compared or reported.
      #""(newsapi|bbc|articles)-"#,
      #"(source|provider|key)\s*(==|:)\s*"(\#(names)|[abc])""#,
      #"\{ "(newsapi|bbc|articles)" \}"#,
      // The built-in sources A, B and C.
      #"\["a", "b", "c"\]"#, #"[uU]rls?\["[abc]"\]"#,
    ].map { try! NSRegularExpression(pattern: $0) }
    // In NewsCore a name is any such literal but a JSON key (`("url", …)`), a list's member, a
    // config.json field (`field: "url"`, `fail(at: "url", …)`), an XML element of a web feed (Syndication) or the saved
    // search's format and `search:` address (SavedSearchAdapter).
    let inCore = try [#"(?<![(\[]|field: |at: )"(\#(names))[-"]"#, #"name: "[abc]""#].map {
      try NSRegularExpression(pattern: $0)
    }
    // StoreLayout names files, some of which a list shares its name with (`bookmarks`).
    let owners = ["NewsCore/Models/SourceName.swift", "NewsCore/Store/StoreLayout.swift"]
    let found = try Self.lines(except: owners) { file in
      guard file.hasPrefix("NewsCore/"), !file.hasPrefix("NewsCore/Feed/Syndication/"),
        !file.hasSuffix("/SavedSearchAdapter.swift")
      else { return everywhere }
      return everywhere + inCore
    }
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    #expect(SourceName.reserved.isSuperset(of: ProviderRegistry.builtIn.names))
  }

  /// Every line of a Swift file of Sources/ but the `owners` (comments left out) that a pattern of
  /// its file matches, as `file:line: text`.
  static func lines(except owners: [String], patterns: (String) -> [NSRegularExpression]) throws
    -> [String]
  {
    let files = try #require(FileManager.default.enumerator(atPath: sources.path))
      .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
    #expect(Set(owners).isSubset(of: files))
    var found: [String] = []
    for file in files where !owners.contains(file) {
      let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
      let patterns = patterns(file)
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
        let range = NSRange(line.startIndex..., in: line)
        if patterns.contains(where: { $0.firstMatch(in: String(line), range: range) != nil }) {
          found.append("\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
        }
      }
    }
    return found
  }
}
