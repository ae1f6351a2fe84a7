import Foundation
import TestSupport
import Testing

@testable import NewsCore

/// Bundles read through descriptors held open: each opened once, at most a few held, and let go
/// on demand.
@Suite("Open files: records read through descriptors held open")
struct OpenFilesTests {
  let directory = TemporaryDirectory()

  func file(_ name: String, _ text: String) throws -> String {
    let url = directory.url.appendingPathComponent(name, isDirectory: false)
    try Data(text.utf8).write(to: url)
    return url.path
  }

  @Test("a range reads as it does through a descriptor of its own, the file opened once")
  func sameBytes() throws {
    let path = try file("a", "0123456789")
    let files = OpenFiles()
    for (offset, count) in [(0, 4), (3, 5), (8, 10), (12, 3)] {
      #expect(
        files.readRange(path, offset: offset, count: count)
          == FileDescriptor.readRange(path, offset: offset, count: count))
    }
    #expect(files.count == 1)
  }

  @Test("a file removed after it was opened reads as missing, as by its path, and is let go")
  func removedFile() throws {
    let path = try file("b", "bundle")
    let files = OpenFiles()
    #expect(files.readRange(path, offset: 0, count: 3) == .bytes(Array("bun".utf8)))
    try FileManager.default.removeItem(atPath: path)
    #expect(files.readRange(path, offset: 3, count: 3) == .missing)
    #expect(files.count == 0)
  }

  @Test("every file is let go at once")
  func closeAll() throws {
    let files = OpenFiles()
    for name in ["c", "d"] {
      #expect(files.readRange(try file(name, "x"), offset: 0, count: 1) == .bytes([120]))
    }
    #expect(files.count == 2)
    files.closeAll()
    #expect(files.count == 0)
  }

  @Test("at most `limit` files are held, the oldest closed first", arguments: [1, 3])
  func limit(limit: Int) throws {
    let files = OpenFiles(limit: limit)
    let paths = try (0..<5).map { try file("f\($0)", "file \($0)") }
    for (number, path) in paths.enumerated() {
      #expect(files.readRange(path, offset: 5, count: 1) == .bytes(Array("\(number)".utf8)))
      #expect(files.count == min(number + 1, limit))
    }
    // The first was closed to make room; it opens again.
    #expect(files.readRange(paths[0], offset: 0, count: 4) == .bytes(Array("file".utf8)))
    #expect(files.count == limit)
  }

  @Test("a file that is not there reads as missing and is not held")
  func missing() {
    let files = OpenFiles()
    let path = directory.url.appendingPathComponent("none").path
    #expect(files.readRange(path, offset: 0, count: 1) == .missing)
    #expect(files.count == 0)
  }
}
