import Foundation
import Testing

@Suite("store file names live in StoreLayout only")
struct StoreLayoutTests {
  /// `Sources/`, found from this file's place in the repository.
  static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")

  @Test("no Swift file but StoreLayout.swift spells a store file name")
  func namesInOnePlace() throws {
    let everywhere = [
      #""(keycheck|segments|listings|last-listing|read-log|revalidated)""#,
      #""(feed|listing|seg|read)-"#,
    ].map { try! NSRegularExpression(pattern: $0) }
    // `read` and `bookmarks` are command names too: as file names they are looked for where
    // files are named (NewsCore, which alone opens the store).
    let inCore = try NSRegularExpression(
      pattern: #"(name: |update\(|remove\(|readBytes\()"(bookmarks|read)""#)
    let files = try #require(FileManager.default.enumerator(atPath: Self.sources.path))
      .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
    #expect(files.contains("NewsCore/Store/StoreLayout.swift"))
    var found: [String] = []
    for file in files where !file.hasSuffix("StoreLayout.swift") {
      let text = try String(
        contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
        let range = NSRange(line.startIndex..., in: line)
        let patterns = file.hasPrefix("NewsCore/") ? everywhere + [inCore] : everywhere
        if patterns.contains(where: { $0.firstMatch(in: String(line), range: range) != nil }) {
          found.append("\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
        }
      }
    }
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
  }
}
