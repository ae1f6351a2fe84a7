import Foundation
import TestSupport
import Testing

/// The JSON documents against their schemas in docs/schema/ (#47.2): the real output of each
/// command, checked by a small validator of the schemas' subset (type, enum, required,
/// properties, additionalProperties false, items, `$ref` to a definition). A field added without
/// its schema fails.
@Suite("JSON documents match docs/schema")
struct JSONSchemaTests {
  let harness: Harness

  init() throws {
    harness = try Harness()
    harness.routeDemoSources()
  }

  static func schema(_ name: String) throws -> [String: Any] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../docs/schema/\(name).json").standardizedFileURL
    return try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
  }

  /// What is wrong with `value` against `schema` (`root` for `$ref`s), as paths.
  static func problems(_ value: Any, _ schema: [String: Any], root: [String: Any], at path: String)
    -> [String]
  {
    if let reference = schema["$ref"] as? String {
      let name = String(reference.split(separator: "/").last ?? "")
      guard let definitions = root["definitions"] as? [String: Any],
        let target = definitions[name] as? [String: Any]
      else { return ["\(path): no definition \(reference)"] }
      return problems(value, target, root: root, at: path)
    }
    var found: [String] = []
    if let types = (schema["type"] as? [String]) ?? (schema["type"] as? String).map({ [$0] }) {
      let kind: String
      switch value {
      case is NSNull: kind = "null"
      case let number as NSNumber where String(cString: number.objCType) == "c": kind = "boolean"
      case let number as NSNumber:
        kind = number.doubleValue == number.doubleValue.rounded() ? "integer" : "number"
      case is String: kind = "string"
      case is [Any]: kind = "array"
      case is [String: Any]: kind = "object"
      default: kind = "unknown"
      }
      let accepted = types.contains(kind) || (kind == "integer" && types.contains("number"))
      if !accepted { found.append("\(path): \(kind), not \(types.joined(separator: "|"))") }
    }
    if let allowed = schema["enum"] as? [Any] {
      let text = "\(value)"
      if !allowed.contains(where: { "\($0)" == text }) {
        found.append("\(path): \(text) not in enum")
      }
    }
    if let object = value as? [String: Any] {
      let properties = schema["properties"] as? [String: Any] ?? [:]
      for key in schema["required"] as? [String] ?? [] where object[key] == nil {
        found.append("\(path).\(key): missing")
      }
      for (key, member) in object {
        if let inner = properties[key] as? [String: Any] {
          found += problems(member, inner, root: root, at: "\(path).\(key)")
        } else if schema["additionalProperties"] as? Bool == false {
          found.append("\(path).\(key): not in the schema")
        }
      }
    }
    if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
      for (index, element) in array.enumerated() {
        found += problems(element, items, root: root, at: "\(path)[\(index)]")
      }
    }
    return found
  }

  static func check(_ document: [String: Any], against name: String) throws -> [String] {
    let schema = try schema(name)
    return problems(document, schema, root: schema, at: name)
  }

  @Test(
    "each command's --json matches its schema",
    arguments: [
      (["headlines", "--json"], "articles"), (["search", "covid", "--json"], "articles"),
      (["bookmarks", "--json"], "articles"), (["feed", "--json"], "feed"),
      (["sources", "--json"], "sources"), (["sync", "--json"], "sync"),
      (["show", "1", "--json"], "show"), (["doctor", "--json"], "doctor"),
      (["accounts", "--json"], "accounts"), (["ignore", "list", "--json"], "ignore"),
      (["sources", "--failing", "--json"], "failing"), (["keys", "--json"], "keys"),
    ])
  func matches(arguments: [String], schema: String) async throws {
    await harness.succeed(["headlines"])
    await harness.succeed(["bookmark", "1"])
    _ = try harness.home.write(
      "news/config.json",
      #"{"ignore": [{"title": "x"}, {"query": "is:read", "source": "a"}], "#
        + #""commands": {"w": {"run": "true"}}, "keys": {"list": {"W": "command:w"}}}"#)
    let result = await harness.run(arguments, environment: ["NEWS_COUNTS": "off"])
    #expect(result.code == .success, "\(result.err)")
    let problems = try Self.check(try result.json(), against: schema)
    #expect(problems.isEmpty, "\(problems.prefix(5).joined(separator: "\n"))")
  }

  @Test("a field added without its schema fails; one missing does too")
  func catches() throws {
    let document: [String: Any] = [
      "schemaVersion": 1, "startedAt": "x", "finishedAt": "y",
      "sources": [
        [
          "name": "a", "status": "ok", "new": 1, "total": 2, "error": NSNull(), "attempts": 1,
          "asked": true, "nextFetchAt": NSNull(), "extra": true,
        ]
      ],
    ]
    #expect(
      try Self.check(document, against: "sync") == ["sync.sources[0].extra: not in the schema"])
    var missing = document
    missing["startedAt"] = nil
    missing["sources"] = []
    #expect(try Self.check(missing, against: "sync") == ["sync.startedAt: missing"])
  }
}
