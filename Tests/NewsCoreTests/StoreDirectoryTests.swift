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

#if canImport(Glibc)
  import Glibc

  @Suite("Store directory: a directory entry is read only as far as its record")
  struct DirectoryEntryTests {
    /// glibc's `readdir` hands out records only as long as their name: the last record of a
    /// `getdents` buffer may end where the mapping ends. Here a record ends exactly at a page
    /// followed by one that may not be read: copying the declared 256-byte `d_name` crashes.
    @Test("a record that ends at an unreadable page is read up to its name's NUL")
    func recordAtThePageEnd() throws {
      let page = Int(sysconf(Int32(_SC_PAGESIZE)))
      let mapping = try #require(
        mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
      #expect(mapping != MAP_FAILED)
      defer { munmap(mapping, 2 * page) }
      #expect(mprotect(mapping + page, page, PROT_NONE) == 0)
      let name = Array("segment-0042.enc".utf8) + [0]
      let offset = try #require(MemoryLayout<dirent>.offset(of: \dirent.d_name))
      // The record as long as its name, aligned to 8 as the kernel's are, ending at the page.
      let length = (offset + name.count + 7) & ~7
      let record = mapping + page - length
      record.initializeMemory(as: UInt8.self, repeating: 0, count: length)
      (record + offset).copyMemory(from: name, byteCount: name.count)
      let bytes = StoreDirectory.name(
        of: UnsafePointer(record.assumingMemoryBound(to: dirent.self)))
      #expect(String(decoding: bytes, as: UTF8.self) == "segment-0042.enc")
    }

    @Test("every name of a directory larger than one getdents buffer is listed")
    func manyEntries() throws {
      let count = 3_000
      let directory = TemporaryDirectory()
      let files = StoreDirectory(url: directory.url)
      // Names of every length from 1 to 60 bytes, so that some buffer ends at each alignment.
      var made: Set<String> = []
      for index in 0..<count {
        let name = String(index) + String(repeating: "n", count: index % 60)
        #expect(
          FileManager.default.createFile(
            atPath: directory.url.appendingPathComponent(name).path, contents: nil))
        made.insert(name)
      }
      let listed = files.entries { $0.first != UInt8(ascii: ".") }
      #expect(Set(listed) == made)
      #expect(listed.count == count)
      #expect(files.containsName(withPrefix: "2999"))
      #expect(!files.containsName(withPrefix: "x"))
    }
  }
#endif
