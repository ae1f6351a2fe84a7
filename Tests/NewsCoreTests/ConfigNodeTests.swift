import Foundation
import Testing

@testable import NewsCore

/// config.json's one reader (#54.1): every value carries its path, every mistake names it the
/// same way, and the sections come from one registry.
@Suite("config.json's reader: paths, values and sections")
struct ConfigNodeTests {
  static func parse(_ json: String, sections: ConfigSections = .core) throws(ConfigurationError)
    -> FeedConfigFile
  {
    try FeedConfigFile.parse(Data(json.utf8), path: "c.json", sections: sections)
  }

  @Test(
    "a mistake anywhere names the file, the source and the field's path",
    arguments: [
      (#"{"sources": [{"name": "d", "url": 3}]}"#, "source 'd', field 'url' must be an http"),
      (
        #"{"sources": [{"name": "d", "url": "https://x.org", "mapping": {"items": 1}}]}"#,
        "source 'd', field 'mapping.items' must be the JSON path"
      ),
      (
        #"{"sources": [{"name": "d", "url": "https://x.org", "extract": {"keep": 1}}]}"#,
        "source 'd', field 'extract.keep' must be a selector"
      ),
      (#"{"sources": [{"name": "D"}]}"#, "field 'sources[0].name' must be 1 to 64"),
      (#"{"sources": [3]}"#, "field 'sources[0]' must be an object"),
      (
        #"{"ignore": [{"title": "x"}, {"title": "y", "regex": 1}]}"#,
        "field 'ignore[1].regex' must be true or false"
      ),
      (#"{"hooks": {"newItem": ""}}"#, "field 'hooks.newItem' must be a command"),
      (#"{"hookEnv": ["A", 1]}"#, "field 'hookEnv' must be a list of variable names"),
      (#"{"sources": [{"name": "bbc", "ttl": 3}]}"#, "source 'bbc', field 'ttl' does not apply"),
      (
        #"{"sources": [{"name": "d", "ttl": true, "url": "https://x.org"}]}"#,
        "source 'd', field 'ttl' must be a number of seconds"
      ),
      (
        #"{"sources": [{"name": "d", "ttl": "soon", "url": "https://x.org"}]}"#,
        #"source 'd', field 'ttl' must be a number of seconds from 0 to 31536000 (a year), or "30m""#
      ),
      (
        #"{"sources": [{"name": "d", "ttl": "400d", "url": "https://x.org"}]}"#,
        "source 'd', field 'ttl' must be a number of seconds"
      ),
      (#"[1]"#, "c.json is not a JSON object"),
      ("{\n  \"sources\": [,]\n}", "c.json is not valid JSON (line 2"),
      (
        "{\n  // my feeds\n  \"sources\": []\n}",
        "c.json is not valid JSON (line 2, column 3): a comment (JSON has none)"
      ),
    ] as [(String, String)])
  func mistakes(json: String, message: String) {
    #expect {
      _ = try Self.parse(json)
    } throws: { error in
      let text = (error as? ConfigurationError)?.message ?? ""
      return text.hasPrefix("c.json") && text.contains(message)
    }
  }

  @Test("a section no part of the program registered is refused, with the closest name")
  func sections() throws {
    let sections = ConfigSections.core.adding(["keys", "theme"])
    #expect(sections.names == ["sources", "ignore", "hooks", "hookEnv", "keys", "theme"])
    #expect(throws: ConfigurationError.self) { try Self.parse(#"{"key": {}}"#) }
    do {
      _ = try Self.parse(#"{"key": {}}"#, sections: sections)
      Issue.record("a misspelt section was read")
    } catch {
      #expect(error.message.contains("field 'key' is not a section (did you mean keys?)"))
      #expect(error.message.contains("sources, ignore, hooks, hookEnv, keys, theme"))
    }
    // Registered, a section is the executable's to read: NewsCore keeps it in the root.
    let file = try Self.parse(#"{"keys": {"list": {"x": "top"}}}"#, sections: sections)
    #expect(file.root["keys"]?["list"]?["x"]?.path == "keys.list.x")
    #expect(file.sections == sections)
    // A reader's own notes are kept and not read.
    #expect(try Self.parse(#"{"_comment": "mine", "$schema": "x"}"#).sources.isEmpty)
    #expect(try Self.parse("{}").sources.isEmpty)
  }

  @Test("values: booleans are not numbers, whole numbers are not 1.5, paths index lists")
  func values() throws {
    let root = try ConfigNode.parse(
      Data(#"{"a": true, "b": 1, "c": 1.5, "d": ["x", "y"], "e": null, "f": {"g": "h"}}"#.utf8),
      file: "c.json")
    #expect(root["a"]?.flag == true)
    #expect(root["a"]?.integer == nil)
    #expect(root["b"]?.integer == 1)
    #expect(root["b"]?.flag == nil)
    #expect(root["c"]?.integer == nil)
    #expect(try root["c"]?.number(in: 0...2, "") == 1.5)
    #expect(try root["d"]?.list("").map(\.path) == ["d[0]", "d[1]"])
    #expect(try root["d"]?.strings("") == ["x", "y"])
    #expect(root["e"]?.isNull == true)
    #expect(root["f"]?["g"]?.text == "h")
    #expect(root["f"]?["g"]?.path == "f.g")
    #expect(root["zz"] == nil)
    #expect(root.keys == ["a", "b", "c", "d", "e", "f"])
    #expect(throws: ConfigurationError.self) { try root["a"]?.string("must be a string") }
    #expect(throws: ConfigurationError.self) { try root["b"]?.bool() }
    #expect(throws: ConfigurationError.self) {
      try root["f"]?.refuseOthers(than: ["x"], "is not understood")
    }
    do {
      _ = try root["f"]?.refuseOthers(than: ["x"], "is not understood")
    } catch {
      #expect(error.message == "c.json: field 'f.g' is not understood")
    }
  }

  @Test("a source's ttl is seconds, or a time as a reader writes it")
  func ttlAsTime() throws {
    let file = try Self.parse(
      #"{"sources": [{"name": "d", "url": "https://x.org", "ttl": "2h"},"#
        + #"{"name": "e", "url": "https://y.org", "ttl": 90}]}"#)
    #expect(file.sources.map(\.ttl) == [.seconds(7_200), .seconds(90)])
  }

  @Test("a lone surrogate is refused: the file is read whole or not at all")
  func loneSurrogate() {
    #expect(throws: ConfigurationError.self) {
      try ConfigNode.parse(Data(#"{"sources": [], "keys": {"x": "\ud800"}}"#.utf8), file: "c")
    }
  }
}
