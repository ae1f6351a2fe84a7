import Foundation
import TestSupport
import Testing

@testable import NewsCore

/// The revalidation times are read by the store's own JSON reader: what it reads is what
/// `JSONDecoder` reads from the same file, to the last bit of every number.
@Suite("revalidation times read as JSONDecoder reads them")
struct RevalidationTimesTests {
  let directory = TemporaryDirectory()
  var store: EncryptedStore {
    EncryptedStore.testing(in: directory.url, key: 7)
  }

  /// Times as the store writes them: seconds since 1970 with any fraction, and numbers that
  /// `JSONEncoder` writes with an exponent or with more than fifteen digits.
  static func times(seed: UInt64) -> [String: Double] {
    var random = SeededGenerator(seed: seed)
    var times: [String: Double] = [:]
    for index in 0..<300 {
      let seconds: Double =
        switch index % 5 {
        case 0: Double(Int.random(in: 1_600_000_000...1_900_000_000, using: &random))
        case 1: Double.random(in: 1_600_000_000...1_900_000_000, using: &random)
        case 2: Double.random(in: 0...1e-6, using: &random)
        case 3: Double.random(in: 1e17...1e21, using: &random)
        default: -Double.random(in: 0...1e9, using: &random)
        }
      times["source \(index) \"é\"\\"] = seconds
    }
    return times
  }

  @Test("the same times as JSONDecoder, bit for bit", arguments: [1, 2, 3] as [UInt64])
  func same(seed: UInt64) throws {
    let written = Self.times(seed: seed)
    try store.write(written, name: RevalidationTimes.fileName)
    let decoded = try #require(
      try store.read([String: Double].self, name: RevalidationTimes.fileName))
    let read = try RevalidationTimes.read(from: store)
    #expect(read.count == written.count)
    #expect(read.mapValues(\.bitPattern) == decoded.mapValues(\.bitPattern))
    #expect(read.mapValues(\.bitPattern) == written.mapValues(\.bitPattern))
  }

  @Test("no file is no times; a file of something else fails as JSONDecoder fails")
  func otherFiles() throws {
    #expect(try RevalidationTimes.read(from: store).isEmpty)
    try store.write(["a": "yesterday"], name: RevalidationTimes.fileName)
    #expect(throws: DecodingError.self) { try RevalidationTimes.read(from: store) }
    let times = RevalidationTimes(store: store)
    #expect(times.time(of: "a") == nil)
  }

  @Test(
    "numbers past fifteen digits or with an exponent are the config reader's only when asked",
    arguments: ["1764950400.1234567", "1e3", "-2.5E-7", "12345678901234567890"])
  func everyNumber(text: String) throws {
    let bytes = Array(text.utf8)
    #expect(ConfigJSONParser.value(of: bytes) == nil)
    #expect(ConfigJSONParser.value(of: bytes, everyNumber: true) == .number(Double(text)!))
  }
}
