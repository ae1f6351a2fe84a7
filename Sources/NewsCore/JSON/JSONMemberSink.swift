import Foundation

/// Where a JSON object's members go as they are made: into a tree (``JSONMembers``) or straight
/// into a document's bytes (``JSONObjectWriter``). A row defined once over a sink is the same
/// row either way: a test builds the tree, a command of 10,000 rows writes the bytes.
public protocol JSONMemberSink {
  /// Adds `value` under `key`.
  mutating func add(_ key: StaticString, _ value: JSONValue)
  /// Adds a string, or `null` when it is absent.
  mutating func add(_ key: StaticString, string: String?)
  /// Adds an integer, or `null` when it is absent.
  mutating func add(_ key: StaticString, int: Int?)
  /// Adds `true` or `false`.
  mutating func add(_ key: StaticString, bool: Bool)
  /// Adds an ISO 8601 UTC timestamp, or `null` when the date is absent.
  mutating func add(_ key: StaticString, date: Date?)
  /// Adds an array of strings.
  mutating func add(_ key: StaticString, strings: [String])
}

extension JSONMemberSink {
  public mutating func add(_ key: StaticString, string: String?) { add(key, .string(string)) }
  public mutating func add(_ key: StaticString, int: Int?) { add(key, .int(int)) }
  public mutating func add(_ key: StaticString, bool: Bool) { add(key, .bool(bool)) }
  public mutating func add(_ key: StaticString, date: Date?) { add(key, .date(date)) }
  public mutating func add(_ key: StaticString, strings: [String]) {
    add(key, .array(strings.map { .string($0) }))
  }
}
