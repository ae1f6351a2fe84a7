import FeedParsing
import Foundation

/// One value of a configuration file (`config.json`, a theme file) and where it is: every reader
/// of the file reads through this type, so every mistake names its place the same way
/// (`keys.list.x`, or `source 'd', field 'mapping.items'`) and is one ``ConfigurationError``.
///
///     let root = try ConfigNode.parse(data, file: path)
///     let ttl = try root["sources"]?.list("must be a list of sources")
public struct ConfigNode: Sendable {
  /// A JSON value as parsed, booleans apart from numbers.
  public enum Value: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([Value])
    /// Members in key order (JSON objects have none; sorted, errors come in a stable order).
    case object([String: Value])
  }

  /// The value here.
  public let value: Value
  /// The file it was read from.
  public let file: String
  /// The source (an entry of `sources`) it belongs to, named in messages as `source 'd'`.
  public let source: String?
  /// Its place: `keys.list.x`, `sources[2]`, or relative to ``source`` (`mapping.items`); empty
  /// at the top.
  public let path: String

  public init(_ value: Value, file: String, source: String? = nil, path: String = "") {
    self.value = value
    self.file = file
    self.source = source
    self.path = path
  }

  /// The field as messages name it: the path, or ``topLevel``.
  public var field: String { path.isEmpty ? Self.topLevel : path }

  /// The field of the file as a whole, in messages.
  public static let topLevel = "(top level)"

  /// Reads a file's bytes (a byte-order mark first is skipped); invalid JSON is an error naming
  /// the line and column where the parser stopped.
  public static func parse(_ data: Data, file: String) throws(ConfigurationError) -> ConfigNode {
    // A byte-order mark (Windows editors write one) is not JSON.
    let json = data.starts(with: [0xEF, 0xBB, 0xBF]) ? Data(data.dropFirst(3)) : data
    if let value = ConfigJSONParser.value(of: Array(json)) {
      return ConfigNode(value, file: file)
    }
    // What that parser leaves (a mistake, another encoding): read as before, for its message.
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed])
    } catch {
      let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
      // A lone surrogate (`"\ud800"`) is well-formed JSON that is not text.
      let reason =
        syntaxErrorPosition(json, detail: detail).map { " (\($0))" }
        ?? (detail.isEmpty ? "" : " (\(detail))")
      throw .invalidConfigFile(
        file: file, source: nil, field: Self.topLevel,
        problem: "is not valid JSON" + reason + comment(json, detail: detail))
    }
    return ConfigNode(Value(object), file: file)
  }

  /// `: a comment (JSON has none)` when the parser stopped at `//` or `/*`: a file written as
  /// other programs' settings are.
  static func comment(_ data: Data, detail: String) -> String {
    guard let range = detail.range(of: "character "),
      let offset = Int(detail[range.upperBound...].prefix { $0.isNumber }), offset < data.count
    else { return "" }
    let start = data.index(data.startIndex, offsetBy: offset)
    let next = data[start...].prefix(2)
    return next.elementsEqual("//".utf8) || next.elementsEqual("/*".utf8)
      ? ": a comment (JSON has none)" : ""
  }

  /// Where the JSON parser stopped, as `line 2, column 16` (from the character offset its
  /// message names), or `nil` when it does not say.
  static func syntaxErrorPosition(_ data: Data, detail: String) -> String? {
    guard let range = detail.range(of: "character "),
      let offset = Int(detail[range.upperBound...].prefix { $0.isNumber }),
      offset <= data.count
    else { return nil }
    let before = data.prefix(offset)
    let line = before.filter { $0 == 0x0A }.count + 1
    let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? before.startIndex
    let column = String(decoding: data[lineStart..<before.endIndex], as: UTF8.self).count + 1
    return "line \(line), column \(column)"
  }

  /// The error for this place.
  public func fail(_ problem: String) -> ConfigurationError {
    .invalidConfigFile(file: file, source: source, field: field, problem: problem)
  }

  /// The error for a place below this one (`field` relative to it).
  public func fail(at field: String, _ problem: String) -> ConfigurationError {
    .invalidConfigFile(
      file: file, source: source, field: path.isEmpty ? field : path + "." + field,
      problem: problem)
  }

  /// The node as the root of the entry of `sources` named `name`: what is below it is named
  /// relative to it, after `source 'name'`.
  public func asSource(named name: String) -> ConfigNode {
    ConfigNode(value, file: file, source: name)
  }

  /// The member `key` of an object; `nil` when it has none (or this is not an object).
  public subscript(key: String) -> ConfigNode? {
    guard case .object(let members) = value, let member = members[key] else { return nil }
    return ConfigNode(
      member, file: file, source: source, path: path.isEmpty ? key : path + "." + key)
  }

  /// Whether it is `null`.
  public var isNull: Bool { value == .null }

  /// Whether the object has the member `key`.
  public func has(_ key: String) -> Bool { self[key] != nil }

  /// How many members the object has (0 when it is not an object).
  public var memberCount: Int {
    guard case .object(let members) = value else { return 0 }
    return members.count
  }

  /// The object's member names, sorted; none when it is not an object.
  public var keys: [String] {
    guard case .object(let members) = value else { return [] }
    return members.keys.sorted()
  }

  /// The string; otherwise the error `problem` (`must be a command`).
  public func string(_ problem: String) throws(ConfigurationError) -> String {
    guard case .string(let text) = value else { throw fail(problem) }
    return text
  }

  /// The string, when it is one.
  public var text: String? {
    guard case .string(let text) = value else { return nil }
    return text
  }

  /// `true` or `false`; anything else is `must be true or false`.
  public func bool() throws(ConfigurationError) -> Bool {
    guard case .bool(let flag) = value else { throw fail("must be true or false") }
    return flag
  }

  /// The boolean, when it is one.
  public var flag: Bool? {
    guard case .bool(let flag) = value else { return nil }
    return flag
  }

  /// The number, in `range`; otherwise the error `problem`.
  public func number(in range: ClosedRange<Double>, _ problem: String) throws(ConfigurationError)
    -> Double
  {
    guard case .number(let number) = value, range.contains(number) else { throw fail(problem) }
    return number
  }

  /// Seconds in `range`: a number, or a time as ``DurationText`` reads it (`"30m"`, `"1d"`);
  /// otherwise the error `problem`.
  public func seconds(in range: ClosedRange<Double>, _ problem: String) throws(ConfigurationError)
    -> Double
  {
    if let text, let seconds = DurationText.seconds(text), range.contains(seconds) {
      return seconds
    }
    return try number(in: range, problem)
  }

  /// The whole number, when it is one (not a boolean, not 1.5).
  public var integer: Int? {
    guard case .number(let number) = value, number == number.rounded(), abs(number) < 1e15
    else { return nil }
    return Int(number)
  }

  /// The whole number in `range`; otherwise the error `problem`.
  public func integer(in range: ClosedRange<Int>, _ problem: String) throws(ConfigurationError)
    -> Int
  {
    guard let number = integer, range.contains(number) else { throw fail(problem) }
    return number
  }

  /// A list of strings; otherwise the error `problem`.
  public func strings(_ problem: String) throws(ConfigurationError) -> [String] {
    guard case .array(let items) = value else { throw fail(problem) }
    var strings: [String] = []
    for item in items {
      guard case .string(let text) = item else { throw fail(problem) }
      strings.append(text)
    }
    return strings
  }

  /// The list's elements, each with its place (`sources[2]`); otherwise the error `problem`.
  public func list(_ problem: String) throws(ConfigurationError) -> [ConfigNode] {
    guard case .array(let items) = value else { throw fail(problem) }
    return items.enumerated().map { index, item in
      ConfigNode(item, file: file, source: source, path: path + "[\(index)]")
    }
  }

  /// Nothing when it is an object; otherwise the error `problem` (``members(_:)`` without
  /// making them).
  public func requireObject(_ problem: String) throws(ConfigurationError) {
    guard case .object = value else { throw fail(problem) }
  }

  /// The object's members in key order, each with its place; otherwise the error `problem`.
  public func members(_ problem: String) throws(ConfigurationError) -> [(
    key: String, value: ConfigNode
  )] {
    guard case .object = value else { throw fail(problem) }
    return keys.compactMap { key in self[key].map { (key, $0) } }
  }

  /// Refuses a member of the object not in `known`: `problem` says what is understood.
  public func refuseOthers(than known: [String], _ problem: String) throws(ConfigurationError) {
    for key in keys where !known.contains(key) {
      throw fail(at: key, problem)
    }
  }
}

extension ConfigNode.Value {
  /// The value `JSONSerialization` made: a boolean is an `NSNumber` of type `c`.
  ///
  /// Objects and arrays are asked for before numbers: asking whether a Swift dictionary is an
  /// `NSNumber` bridges it (and all it holds) to Foundation's classes first, which made reading
  /// a `config.json` of 10,000 sources take a third of a second.
  init(_ object: Any) {
    switch object {
    case let text as String: self = .string(text)
    case let members as [String: Any]: self = .object(members.mapValues(Self.init))
    case let items as [Any]: self = .array(items.map(Self.init))
    case let number as NSNumber:
      self =
        String(cString: number.objCType) == "c"
        ? .bool(number.boolValue) : .number(number.doubleValue)
    default: self = .null
    }
  }
}
