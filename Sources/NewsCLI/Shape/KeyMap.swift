import FeedParsing
import Foundation
import NewsCore

/// Which keys do what in `news browse`: the defaults, changed by `"keys"` in `config.json`
/// (per screen, and `everywhere`), checked once when the configuration is read: an unknown
/// action or key name, two actions on one key, and a key bound alone that also starts a sequence
/// are refused (exit 78), naming both sides.
struct KeyMap: Equatable, Sendable {
  /// The screens keys are bound on; `everywhere` applies on each unless it binds the key itself.
  enum Context: String, CaseIterable, Sendable, Comparable {
    case everywhere, home, list, article

    static func < (left: Context, right: Context) -> Bool {
      (allCases.firstIndex(of: left) ?? 0) < (allCases.firstIndex(of: right) ?? 0)
    }
  }

  /// A binding and where it comes from (for messages and `news keys`).
  struct Binding: Equatable, Sendable {
    var keys: [Key]
    /// Empty: unbound (`null`), which also hides an `everywhere` binding of the key.
    var actions: [BrowseAction]
    /// `keys.list.J`, or `nil` for a default.
    var origin: String?
  }

  /// What a sequence typed so far means.
  enum Lookup: Equatable {
    case actions([BrowseAction])
    /// The start of a longer binding: wait for the next key.
    case prefix
    case unbound
  }

  /// Each context's own bindings, by key sequence.
  private(set) var tables: [Context: [[Key]: Binding]]

  /// The defaults: today's keys, and the new actions where a free key fits (J K as newsboat).
  static let defaults: [Context: [(String, BrowseAction.Name)]] = {
    let moving: [(String, BrowseAction.Name)] = [
      ("j", .down), ("Down", .down), ("k", .up), ("Up", .up), ("Space", .pageDown),
      ("PgDn", .pageDown), ("PgUp", .pageUp), ("g", .top), ("Home", .top), ("G", .bottom),
      ("End", .bottom),
    ]
    return [
      .everywhere: [("?", .help)],
      .home:
        moving + [
          ("Enter", .open), ("l", .open), ("Right", .open), ("q", .quit), ("Esc", .quit),
          ("n", .nextUnread), ("N", .prevUnread), ("r", .reload), ("R", .reloadAll),
          ("t", .nextTag),
        ],
      .list:
        moving + [
          ("Enter", .open), ("l", .open), ("Right", .open), ("q", .back), ("h", .back),
          ("Left", .back), ("Esc", .clearFilter), ("n", .nextUnread),
          ("N", .prevUnread), ("m", .toggleRead), ("A", .markAllRead), ("u", .undo),
          ("o", .openLink),
          ("b", .toggleBookmark), ("p", .play), ("d", .download), ("r", .reload),
          ("/", .filter), ("s", .saveSearch), ("Tab", .nextList), ("S-Tab", .prevList),
          ("J", .nextSource), ("K", .prevSource),
        ],
      .article:
        moving + [
          ("q", .back), ("h", .back), ("Left", .back), ("Esc", .back), ("Backspace", .back),
          ("n", .nextUnread), ("N", .prevUnread), ("m", .toggleRead), ("o", .openLink),
          ("b", .toggleBookmark), ("f", .toggleFullText), ("p", .play), ("d", .download),
          ("J", .nextSource), ("K", .prevSource),
        ],
    ]
  }()

  /// The defaults alone.
  init() {
    var tables: [Context: [[Key]: Binding]] = [:]
    for (context, bindings) in Self.defaults {
      for (name, action) in bindings {
        // The default names are the program's own: they parse (a test holds them to it).
        let keys: [Key]
        do {
          keys = try KeyName.parse(name)
        } catch {
          continue
        }
        tables[context, default: [:]][keys] = Binding(
          keys: keys, actions: [.named(action)], origin: nil)
      }
    }
    self.tables = tables
  }

  /// The defaults changed by `"keys"`; the names of the configured commands and saved searches
  /// are what `command:` and `open-query:` may name. Errors name the field (`keys.list.J`).
  init(_ node: ConfigNode?, commands: Set<String>, savedSearches: Set<String>)
    throws(ConfigurationError)
  {
    self.init()
    guard let node else { return }
    let contexts = try node.members(
      "must be an object of screens (everywhere, home, list, article)")
    for (contextName, bindings) in contexts {
      guard let context = Context(rawValue: contextName) else {
        let suggestion = EditDistance.closest(
          to: contextName, in: Context.allCases.map(\.rawValue))
        throw bindings.fail(
          "is not a screen" + (suggestion.map { " (did you mean \($0)?)" } ?? "")
            + ": everywhere, home, list or article")
      }
      // The user's own bindings of this screen, to refuse two spellings of one key.
      var mine: [[Key]: String] = [:]
      for (keyName, actionNode) in try bindings.members("must be an object of keys and actions") {
        let keys: [Key]
        do {
          keys = try KeyName.parse(keyName)
        } catch {
          throw actionNode.fail(error.text)
        }
        if let other = mine[keys] {
          throw actionNode.fail(
            "binds the same key as keys.\(contextName).\"\(other)\": two actions on one key; "
              + "keep one")
        }
        mine[keys] = keyName
        let actions = try Self.actions(
          actionNode, context: context, commands: commands, savedSearches: savedSearches)
        tables[context, default: [:]][keys] = Binding(
          keys: keys, actions: actions, origin: actionNode.path)
      }
    }
    try checkPrefixes(node)
  }

  /// An action's name, a list of them (a macro), or `null` (unbound), checked.
  private static func actions(
    _ node: ConfigNode, context: Context, commands: Set<String>, savedSearches: Set<String>
  ) throws(ConfigurationError) -> [BrowseAction] {
    if node.isNull { return [] }
    let problem = "must be an action's name, a list of them (a macro), or null (unbound)"
    let names: [String]
    if let one = node.text {
      names = [one]
    } else {
      names = try node.strings(problem)
      guard !names.isEmpty else { throw node.fail(problem) }
    }
    var actions: [BrowseAction] = []
    for name in names {
      guard let action = BrowseAction(name) else {
        let known = BrowseAction.Name.allCases.map(\.rawValue)
        let suggestion = EditDistance.closest(to: name, in: known)
        throw node.fail(
          "names '\(name)', which is not an action"
            + (suggestion.map { " (did you mean \($0)?)" } ?? "")
            + "; the actions are listed in docs/shape.md (and by news keys once config.json reads)")
      }
      switch action {
      case .command(let command) where !commands.contains(command):
        let suggestion = EditDistance.closest(to: command, in: commands.sorted())
        throw node.fail(
          "names the command '\(command)', which \"commands\" does not declare"
            + (suggestion.map { " (did you mean command:\($0)?)" } ?? ""))
      case .openQuery(let search) where !savedSearches.contains(search):
        let suggestion = EditDistance.closest(to: search, in: savedSearches.sorted())
        throw node.fail(
          "names the saved search '\(search)', which is not one"
            + (suggestion.map { " (did you mean open-query:\($0)?)" }
              ?? " (news sources add --search makes one)"))
      case .filter(let query):
        do {
          try ArticleQuery.check(query)
        } catch {
          throw node.fail(
            "holds a query that cannot be read: \(error.problem) at column \(error.column) "
              + "(docs/queries.md)")
        }
      default:
        break
      }
      if context != .everywhere, !action.contexts.contains(context) {
        let places = action.contexts.sorted().map(\.rawValue).joined(separator: ", ")
        throw node.fail(
          "binds \(action.name), which does nothing on \(context.rawValue) (only on \(places))")
      }
      actions.append(action)
    }
    return actions
  }

  /// A key bound alone (or a shorter sequence) that also starts a longer binding on a screen
  /// would never wait for the rest: refused, naming both.
  private func checkPrefixes(_ keys: ConfigNode) throws(ConfigurationError) {
    for context in [Context.home, .list, .article] {
      let bindings = effective(context).values.sorted { $0.keys.count < $1.keys.count }
      for short in bindings {
        for long in bindings
        where long.keys.count > short.keys.count
          && Array(long.keys.prefix(short.keys.count)) == short.keys
        {
          // Reported at the user's side (a default alone is never a conflict).
          let blamed = long.origin ?? short.origin ?? keys.path
          let describe = { (binding: Binding) in
            "'\(KeyName.describe(binding.keys))' (\(binding.origin ?? "a default") on \(context.rawValue): \(binding.actions.map(\.name).joined(separator: ", ")))"
          }
          throw ConfigurationError.invalidConfigFile(
            file: keys.file, source: nil, field: blamed,
            problem:
              "makes \(describe(short)) also the start of \(describe(long)): a key bound alone "
              + "cannot start a sequence; unbind one with null or choose another key")
        }
      }
    }
  }

  /// The bindings in force on `context`: its own, then `everywhere`'s for keys it leaves;
  /// unbound keys left out.
  func effective(_ context: Context) -> [[Key]: Binding] {
    var result = tables[.everywhere] ?? [:]
    if context != .everywhere {
      for (keys, binding) in tables[context] ?? [:] { result[keys] = binding }
    }
    return result.filter { !$0.value.actions.isEmpty }
  }

  /// What `keys`, typed in that order on `context`, mean.
  func lookup(_ keys: [Key], in context: Context) -> Lookup {
    let bindings = effective(context)
    if let binding = bindings[keys] { return .actions(binding.actions) }
    if bindings.keys.contains(where: {
      $0.count > keys.count && Array($0.prefix(keys.count)) == keys
    }) {
      return .prefix
    }
    return .unbound
  }

  /// The key sequences that run `action` alone on `context`, defaults' order first, as written.
  func keys(for action: BrowseAction, in context: Context) -> [String] {
    let order = (Self.defaults[context] ?? []) + (Self.defaults[.everywhere] ?? [])
    let bindings = effective(context).values.filter { $0.actions == [action] }
    func rank(_ binding: Binding) -> Int {
      let name = KeyName.describe(binding.keys)
      return order.firstIndex { $0.0 == name && $0.1.rawValue == action.name } ?? Int.max
    }
    return bindings.sorted {
      (rank($0), KeyName.describe($0.keys)) < (rank($1), KeyName.describe($1.keys))
    }.map { KeyName.describe($0.keys) }
  }

  /// Every binding in force on `context`, sorted by the first action's place in the docs.
  func listing(_ context: Context) -> [Binding] {
    let order = BrowseAction.Name.allCases.map { BrowseAction.named($0) }
    let defaults = (Self.defaults[context] ?? []) + (Self.defaults[.everywhere] ?? [])
    func rank(_ binding: Binding) -> (Int, Int, String) {
      let name = KeyName.describe(binding.keys)
      return (
        binding.actions.first.flatMap { order.firstIndex(of: $0) } ?? Int.max,
        defaults.firstIndex { $0.0 == name } ?? Int.max, name
      )
    }
    return effective(context).values.sorted { rank($0) < rank($1) }
  }
}
