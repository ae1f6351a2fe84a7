import Foundation
import Testing

@testable import NewsCore

@Suite("An object written straight to bytes is the object its tree writes")
struct JSONObjectWriterTests {
  /// Adds members drawn from `generator` (each kind, present and absent, escapes included).
  static func addMembers(
    _ count: Int, into sink: inout some JSONMemberSink,
    using generator: inout some RandomNumberGenerator
  ) {
    let texts = ["", "plain", "quote \" and \\", "line\nfeed\t", "é 😀", "\u{1B}[31m", "c1 \u{85}"]
    let keys: [StaticString] = ["name", "url", "tags", "when", "count", "on", "nested", "k"]
    for index in 0..<count {
      let key = keys[index % keys.count]
      switch Int.random(in: 0..<7, using: &generator) {
      case 0:
        sink.add(
          key, string: Bool.random(using: &generator) ? texts.randomElement(using: &generator) : nil
        )
      case 1:
        sink.add(
          key,
          int: Bool.random(using: &generator)
            ? Int.random(in: -99_999...99_999, using: &generator) : nil)
      case 2: sink.add(key, bool: Bool.random(using: &generator))
      case 3:
        sink.add(
          key,
          date: Bool.random(using: &generator)
            ? Date(timeIntervalSince1970: Double.random(in: -1e10...1e10, using: &generator)) : nil)
      case 4:
        sink.add(key, strings: (0..<Int.random(in: 0...3, using: &generator)).map { texts[$0 * 2] })
      case 5:
        sink.add(key, .object([("a", .array([.int(1), .object([]), .array([])])), ("b", .null)]))
      default: sink.add(key, .array(Bool.random(using: &generator) ? [] : [.string("x"), .null]))
      }
    }
  }

  @Test("200 random objects at each depth, empty ones and deeper than the line of spaces included")
  func sameBytes() {
    var generator = SystemRandomNumberGenerator()
    for depth in [0, 1, 2, 3, 7, 8, 9, 12] {
      for round in 0..<200 {
        let count = round == 0 ? 0 : Int.random(in: 1...12, using: &generator)
        let seed = UInt64.random(in: 0...UInt64.max, using: &generator)
        var drawn = SeededGenerator(seed: seed)
        let tree = JSONMembers.object { Self.addMembers(count, into: &$0, using: &drawn) }
        var expected = Array("head ".utf8)
        tree.write(prettyAt: depth, to: &expected)
        drawn = SeededGenerator(seed: seed)
        var written = Array("head ".utf8)
        JSONObjectWriter.write(prettyAt: depth, to: &written) {
          Self.addMembers(count, into: &$0, using: &drawn)
        }
        #expect(
          String(decoding: written, as: UTF8.self) == String(decoding: expected, as: UTF8.self),
          "depth \(depth), \(count) members, seed \(seed)")
      }
    }
  }

  @Test("an object written at depth 0 is a document JSON readers parse, its keys in order")
  func parses() throws {
    var bytes: [UInt8] = []
    JSONObjectWriter.write(prettyAt: 0, to: &bytes) { object in
      object.add("name", string: "a \"b\"")
      object.add("at", date: Date(timeIntervalSince1970: 1_553_714_199))
      object.add("none", int: nil)
      object.add("tags", strings: ["x", "y"])
    }
    let text = String(decoding: bytes, as: UTF8.self)
    let parsed = try #require(
      try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    #expect(parsed["name"] as? String == "a \"b\"")
    #expect(parsed["at"] as? String == "2019-03-27T19:16:39Z")
    #expect(parsed["none"] is NSNull)
    #expect(parsed["tags"] as? [String] == ["x", "y"])
    let order = ["\"name\"", "\"at\"", "\"none\"", "\"tags\""].map {
      text.range(of: $0)!.lowerBound
    }
    #expect(order == order.sorted())
  }
}
