import NewsCore

/// The key bindings in force, as `news keys` prints them and the keys screen shows them: per
/// screen, the keys of each action (or macro) together.
enum KeyTable {
  /// One line of the table: the keys, what they run, what that does.
  struct Row: Equatable {
    var keys: [String]
    var actions: [BrowseAction]
    /// Every key of the row is a default one.
    var isDefault: Bool

    var summary: String {
      actions.count == 1
        ? actions[0].summary : "macro: " + actions.map(\.name).joined(separator: ", ")
    }
  }

  /// The rows of `context`, in the docs' order of actions.
  static func rows(_ map: KeyMap, _ context: KeyMap.Context) -> [Row] {
    var rows: [Row] = []
    for binding in map.listing(context) {
      let key = KeyName.describe(binding.keys)
      if let index = rows.firstIndex(where: { $0.actions == binding.actions }) {
        rows[index].keys.append(key)
        rows[index].isDefault = rows[index].isDefault && binding.origin == nil
      } else {
        rows.append(Row(keys: [key], actions: binding.actions, isDefault: binding.origin == nil))
      }
    }
    return rows
  }

  /// The text of `news keys`.
  static func text(_ map: KeyMap) -> String {
    var out = ""
    for context in [KeyMap.Context.home, .list, .article] {
      out += context.rawValue + "\n"
      for row in rows(map, context) {
        let keys = row.keys.joined(separator: " ")
        let actions = row.actions.map(\.name).joined(separator: ", ")
        out += "  " + keys.padding(toLength: max(16, keys.count + 2), withPad: " ", startingAt: 0)
        out += actions.padding(toLength: max(20, actions.count + 2), withPad: " ", startingAt: 0)
        out += row.actions.count == 1 ? row.actions[0].summary : "(a macro)"
        out += "\n"
      }
    }
    out +=
      "Keys are the characters the terminal sends: on a non-Latin layout, bind the letters it types.\n"
    return out
  }

  /// `news keys --json`: `{"schemaVersion", "bindings": [{"screen", "keys", "actions",
  /// "default"}], "commands": [{"name", "input"}]}`.
  static func json(_ map: KeyMap, commands: [String: ArticleCommand]) -> JSONValue {
    var bindings: [JSONValue] = []
    for context in [KeyMap.Context.home, .list, .article] {
      for binding in map.listing(context) {
        bindings.append(
          .object([
            ("screen", .string(context.rawValue)),
            ("keys", .string(KeyName.describe(binding.keys))),
            ("actions", .array(binding.actions.map { .string($0.name) })),
            ("default", .bool(binding.origin == nil)),
          ]))
      }
    }
    return .object([
      ("schemaVersion", .int(ArticleJSON.schemaVersion)),
      ("bindings", .array(bindings)),
      (
        "commands",
        .array(
          commands.keys.sorted().map { name in
            .object([
              ("name", .string(name)), ("input", .string(commands[name]?.input.rawValue ?? "url")),
            ])
          })
      ),
    ])
  }
}
