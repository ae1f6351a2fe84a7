import Foundation
import Testing

@testable import NewsCore

/// `config.json` is read by a parser of its own, never more lenient than `JSONSerialization`,
/// which reads what it leaves (and says what is wrong).
@Suite("config.json's JSON parser")
struct ConfigJSONParserTests {
  /// What `JSONSerialization` makes of `text`, as a value; `nil` when it refuses it.
  static func foundation(_ text: String) -> ConfigNode.Value? {
    (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]))
      .map(ConfigNode.Value.init)
  }

  @Test(
    "what it reads, it reads as JSONSerialization does",
    arguments: [
      #"{"sources": [{"name": "d", "url": "https://x.org", "ttl": 60, "tags": ["a", "b"]}]}"#,
      #"{"a": true, "b": false, "c": null, "d": 1.5, "e": -0, "f": 100000, "g": 0.0025}"#,
      #"{"a": 1, "a": 2}"#, " [ ] ", "{}", "3", #""x""#, "  null  ",
      #""\u00e9\uD83D\uDE00\n\t\"\\\/\b\f\r""#, #"{"émoji 😀": "café"}"#,
      #"[[[[[[[[["deep"]]]]]]]]]"#, "123456789012345", "-900719925474099", "83188355.3720784",
    ])
  func readsAsFoundation(text: String) throws {
    let ours = try #require(ConfigJSONParser.value(of: Array(text.utf8)))
    #expect(ours == Self.foundation(text))
  }

  @Test(
    "what it does not read is left to JSONSerialization, which refuses it or reads it",
    arguments: [
      "", "{", "[1,]", #"{"a": 1,}"#, "01", "1.", ".5", "+1", "-", "1e", "1e400", "tru", "nulls",
      #""\ud800""#, #""\udc00x""#, "\"a\u{01}\"", #""\x""#, #""\u12G4""#, "[1 2]", #"{"a" 1}"#,
      #"{1: 2}"#, "[] []", String(repeating: "[", count: 300) + String(repeating: "]", count: 300),
      "123456789012345678901234567890", "1E5", "2.5e-3", "83188355.372078436523",
      "-65297435174.32972", "6444444444444444444440",
    ])
  func leaves(text: String) throws {
    #expect(ConfigJSONParser.value(of: Array(text.utf8)) == nil)
    // Through ConfigNode, the file reads (or fails) as it did before.
    let node = try? ConfigNode.parse(Data(text.utf8), file: "c.json")
    #expect(node?.value == Self.foundation(text))
  }

  @Test("bytes that are not UTF-8 are left to JSONSerialization")
  func notUTF8() {
    #expect(ConfigJSONParser.value(of: [0x22, 0xC3, 0x28, 0x22]) == nil)
    let utf16 = Array("{\"a\": 1}".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    #expect(ConfigJSONParser.value(of: [0xFF, 0xFE] + utf16) == nil)
  }

  @Test("a config of many sources reads as JSONSerialization reads it")
  func many() throws {
    let sources = (0..<2_000).map {
      #"{"name": "feed-\#($0)", "url": "https://example.org/\#($0).xml", "tags": ["t\#($0 % 7)"]}"#
    }
    let text = #"{"sources": ["# + sources.joined(separator: ",\n") + "]}"
    let ours = try #require(ConfigJSONParser.value(of: Array(text.utf8)))
    #expect(ours == Self.foundation(text))
    let file = try FeedConfigFile.parse(Data(text.utf8), path: "c.json")
    #expect(file.sources.count == 2_000)
    #expect(file.sources.last?.tags == ["t4"])
  }
}
