import Foundation
import TestSupport
import Testing

@testable import FeedParsing
@testable import NewsCore

@Suite("Encrypted store")
struct EncryptedStoreTests {
  let directory = TemporaryDirectory()

  func configuration(_ extra: [String: String] = [:]) throws -> Configuration {
    try Configuration(
      environment: ["HOME": directory.url.path, "NEWS_HOME": directory.path("home")].merging(
        extra
      ) { $1 })
  }

  func store(key: StoreKey? = nil) throws -> EncryptedStore {
    EncryptedStore(
      directory: directory.url.appendingPathComponent("data"),
      key: try key
        ?? StoreKey.load(configuration: configuration(), randomBytes: SecureRandom.bytes),
      randomBytes: SecureRandom.bytes)
  }

  func mode(_ path: String) throws -> Int {
    try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
  }

  @Test("the key is created once, mode 0600 in a 0700 directory, and reused")
  func keyCreation() throws {
    let first = try StoreKey.load(configuration: configuration(), randomBytes: SecureRandom.bytes)
    let second = try StoreKey.load(configuration: configuration(), randomBytes: SecureRandom.bytes)
    #expect(first.bytes == second.bytes)
    #expect(first.bytes.count == 32)
    #expect(first.source == directory.path("home/key"))
    #expect(try mode(directory.path("home/key")) == 0o600)
    #expect(try mode(directory.path("home")) == 0o700)
  }

  @Test("NEWS_STORE_KEY (base64) wins over the key file")
  func keyFromEnvironment() throws {
    let encoded = Data(repeating: 7, count: 32).base64EncodedString()
    let key = try StoreKey.load(
      configuration: configuration(["NEWS_STORE_KEY": encoded]), randomBytes: SecureRandom.bytes)
    #expect(key.bytes == [UInt8](repeating: 7, count: 32))
    #expect(key.source == "NEWS_STORE_KEY")
    #expect(!FileManager.default.fileExists(atPath: directory.path("home/key")))
  }

  @Test("a key that is not 32 bytes of base64 is refused", arguments: ["short", "", "AAAA"])
  func invalidKey(value: String) {
    #expect(throws: StoreError.invalidKey(source: "NEWS_STORE_KEY")) {
      _ = try StoreKey.decode(value, source: "NEWS_STORE_KEY")
    }
  }

  @Test("a key file readable by others is refused with the chmod to run")
  func openKeyFile() throws {
    _ = try StoreKey.load(configuration: configuration(), randomBytes: SecureRandom.bytes)
    chmod(directory.path("home/key"), 0o644)
    #expect {
      _ = try StoreKey.load(configuration: configuration(), randomBytes: SecureRandom.bytes)
    } throws: { error in
      guard let error = error as? StoreError else { return false }
      return error == .keyFileTooOpen(path: directory.path("home/key"), mode: "644")
        && error.message.contains("chmod 600") && error.exitCode == .configuration
    }
  }

  @Test("values round-trip and nothing readable is on disk")
  func roundTrip() throws {
    let store = try store()
    try store.write(["secret headline"], name: "notes")
    #expect(try store.read([String].self, name: "notes") == ["secret headline"])
    let bytes = try Data(contentsOf: store.url(for: "notes"))
    #expect(bytes.prefix(4) == Data("NEWS".utf8))
    #expect(bytes[4] == 1)
    #expect(bytes.range(of: Data("secret".utf8)) == nil)
    #expect(try store.read([String].self, name: "absent") == nil)
  }

  @Test("every write uses a fresh nonce")
  func freshNonces() throws {
    let store = try store()
    try store.write([1], name: "a")
    let first = try Data(contentsOf: store.url(for: "a"))
    try store.write([1], name: "a")
    let second = try Data(contentsOf: store.url(for: "a"))
    #expect(first[5..<17] != second[5..<17])
  }

  enum Damage: String, CaseIterable {
    case flippedByte, truncated, emptied, wrongMagic, newerVersion
  }

  @Test(
    "damaged files are errors naming the file (exit 74) and are never overwritten",
    arguments: Damage.allCases)
  func damage(_ damage: Damage) throws {
    let store = try store()
    try store.write(["a"], name: "list")
    let url = store.url(for: "list")
    var bytes = try Data(contentsOf: url)
    switch damage {
    case .flippedByte: bytes[bytes.count - 20] ^= 0x40
    case .truncated: bytes = bytes.prefix(20)
    case .emptied: bytes = Data()
    case .wrongMagic: bytes[0] = UInt8(ascii: "X")
    case .newerVersion: bytes[4] = 9
    }
    try bytes.write(to: url)
    #expect {
      _ = try store.read([String].self, name: "list")
    } throws: { error in
      guard let error = error as? StoreError else { return false }
      return error.exitCode == .ioError && error.message.contains(url.path)
    }
    #expect(throws: StoreError.self) {
      try store.update("list", initial: [String]()) { $0.append("b") }
    }
    #expect(try Data(contentsOf: url) == bytes)
  }

  @Test("another key cannot read the files, and says so")
  func wrongKey() throws {
    try store().write(["a"], name: "list")
    let other = StoreKey.testing(1)
    #expect {
      _ = try store(key: other).read([String].self, name: "list")
    } throws: { error in
      (error as? StoreError)?.message.contains("key") == true
    }
  }

  @Test("a file copied over another does not open (its name is authenticated)")
  func swappedFiles() throws {
    let store = try store()
    try store.write(["bookmarks"], name: "bookmarks")
    try store.write(["listings"], name: "listings")
    try FileManager.default.removeItem(at: store.url(for: "bookmarks"))
    try FileManager.default.copyItem(
      at: store.url(for: "listings"), to: store.url(for: "bookmarks"))
    #expect(throws: StoreError.undecryptable(path: store.url(for: "bookmarks").path)) {
      _ = try store.read([String].self, name: "bookmarks")
    }
  }

  @Test("writeIfChanged writes nothing when the file holds the same value; a change is written")
  func writeIfChanged() throws {
    let store = try store()
    let sealed = { try Data(contentsOf: store.url(for: "list")) }
    #expect(try store.writeIfChanged(["a", "b"], name: "list"))
    let first = try sealed()
    #expect(try !store.writeIfChanged(["a", "b"], name: "list"))
    // Sealed again, the bytes would differ (a fresh nonce): the same bytes say nothing was written.
    #expect(try sealed() == first)
    #expect(try store.writeIfChanged(["a", "c"], name: "list"))
    #expect(try store.read([String].self, name: "list") == ["a", "c"])
    // What counts as the same can be told: here, the same first element.
    #expect(try !store.writeIfChanged(["a", "d"], name: "list") { $0.first == $1.first })
    #expect(try store.read([String].self, name: "list") == ["a", "c"])
    // … within a few bytes of length: a value much longer is written without reading the old.
    let long = ["a"] + (0..<20).map { "item \($0)" }
    #expect(try store.writeIfChanged(long, name: "list") { $0.first == $1.first })
    #expect(try store.read([String].self, name: "list") == long)
  }

  @Test("the key check is read directly: a store of thousands of files is not listed to find it")
  func keyCheckRead() throws {
    let store = try store()
    try store.write(["x"], name: "state")
    let reopened = try self.store()
    // A file that is no store file beside the key check: a listing would not mind it, and
    // the key is proven by the key check alone.
    try Data("not a store file".utf8).write(to: reopened.url(for: "zzz"))
    try reopened.verifyKey()
    try FileManager.default.removeItem(at: reopened.url(for: EncryptedStore.keyCheckName))
    // Without the key check, another file that opens proves the key.
    try self.store().verifyKey()
    let wrong = try self.store(
      key: StoreKey(bytes: [UInt8](repeating: 7, count: 32), source: "test"))
    #expect(throws: StoreError.self) { try wrong.verifyKey() }
  }

  @Test("a write interrupted before the rename leaves the old file")
  func interruptedWrite() throws {
    let store = try store()
    try store.write(["old"], name: "state")
    struct Crash: Error {}
    #expect(throws: Crash.self) {
      try store.writeBytes(Array("[\"new\"]".utf8), name: "state") { throw Crash() }
    }
    #expect(try store.read([String].self, name: "state") == ["old"])
    #expect(store.names() == ["keycheck", "state"])
    // What the crash left is listed, then removed by the next process's first write.
    #expect(store.leftoverTemporaryFiles().count == 1)
    let next = EncryptedStore(
      directory: store.directory,
      key: try StoreKey.load(configuration: configuration(), randomBytes: SecureRandom.bytes),
      randomBytes: SecureRandom.bytes)
    try next.write(["newer"], name: "other")
    #expect(next.leftoverTemporaryFiles().isEmpty)
    #expect(try next.read([String].self, name: "state") == ["old"])
  }

  @Test("concurrent writers lose no update")
  func concurrentWriters() async throws {
    let store = try store()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for writer in 0..<4 {
        group.addTask {
          for item in 0..<10 {
            try store.update("log", initial: [String]()) { $0.append("\(writer)-\(item)") }
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(try store.read([String].self, name: "log")?.count == 40)
  }

  @Test("a held lock makes a non-waiting locker fail with exit 75")
  func lockedStore() throws {
    let store = try store()
    try store.withLock {
      #expect(throws: StoreError.self) {
        try FileLock.withLock(store.directory.appendingPathComponent(".lock"), wait: false) {}
      }
    }
    #expect(StoreError.locked(path: "x").exitCode == .temporaryFailure)
  }
}
