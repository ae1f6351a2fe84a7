import Foundation
import TestSupport
import Testing

@testable import FeedParsing
@testable import NewsCore

@Suite("Store directory: the store's files without a key")
struct StoreDirectoryTests {
  let directory = TemporaryDirectory()

  @Test("names, sizes, leftovers and removal need no key; only store files are listed")
  func withoutAKey() throws {
    let files = StoreDirectory(url: directory.url.appendingPathComponent("store"))
    #expect(files.names().isEmpty)
    #expect(try files.read("missing") == nil)
    try files.withLock {
      try files.replace("b", with: [1, 2, 3], randomBytes: { Array(repeating: 7, count: $0) })
      try files.replace("a", with: [9], randomBytes: { Array(repeating: 8, count: $0) })
    }
    // Neither a dot file nor a file of another suffix is a store file.
    try Data([0]).write(to: files.url.appendingPathComponent("notes.txt"))
    try Data([0]).write(to: files.url.appendingPathComponent(".a.enc.tmp-1-ff"))
    #expect(files.names() == ["a", "b"])
    #expect(files.exists("b") && !files.exists("c"))
    #expect(files.size(of: "b") == 3)
    #expect(try files.read("b") == [1, 2, 3])
    #expect(
      files.leftoverTemporaryFiles() == [files.url.appendingPathComponent(".a.enc.tmp-1-ff").path])
    try files.withLock {
      files.removeLeftovers()
      try files.remove("b")
      try files.remove("b")
    }
    #expect(files.leftoverTemporaryFiles().isEmpty)
    #expect(files.names() == ["a"])
    let mode =
      try FileManager.default.attributesOfItem(atPath: files.fileURL("a").path)[
        .posixPermissions] as? Int
    #expect(mode == 0o600)
  }
}
