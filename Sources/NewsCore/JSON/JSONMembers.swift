/// An object's members gathered as a tree: ``JSONValue/object(_:)`` of what was added.
public struct JSONMembers: JSONMemberSink {
  /// The members in the order they were added.
  public private(set) var members: [(String, JSONValue)] = []

  /// No member yet.
  public init() {}

  /// The object `build` adds to.
  public static func object(_ build: (inout JSONMembers) -> Void) -> JSONValue {
    var members = JSONMembers()
    build(&members)
    return .object(members.members)
  }

  public mutating func add(_ key: StaticString, _ value: JSONValue) {
    members.append((key.description, value))
  }
}
