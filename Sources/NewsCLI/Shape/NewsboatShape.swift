import Foundation
import NewsCore

/// newsboat's `config` lines that shape the reader — `bind-key`, `unbind-key`, `macro`,
/// `color`, `highlight`, `highlight-article`, `bookmark-cmd`, `browser` — made `"keys"`,
/// `"commands"`, `"colors"` and `"highlight"` of `config.json`. Each translation is checked as
/// the configuration will be (an action bound where it does nothing, a key that starts a
/// sequence…): what would not be read is not carried, saying why, so the import never leaves a
/// `config.json` that stops every command. As in newsboat, a later binding of a key wins.
struct NewsboatShape {
  /// The translation of one line: what to add, and as what it was carried.
  private struct Translation {
    var additions: [NewsboatImport.Addition] = []
    var outcome: String
  }

  private struct Refusal: Error {
    var reason: String
  }

  /// The sections as `config.json` has them now.
  private let existing: [String: ConfigNode.Value]
  private let file: String
  private let savedSearches: Set<String>
  private let timeZone: TimeZone
  /// What was carried so far, with the line (an index into the plan's lines) it came from.
  private var accepted: [(addition: NewsboatImport.Addition, line: Int)] = []
  /// The command `bookmark-cmd` became (`command:<name>`), for `bookmark` keys.
  private var bookmarkCommand: String?

  /// Translates the deferred lines of `plan` into its additions, given `config` as it is.
  static func translate(
    _ plan: inout NewsboatImport, config: FeedConfigFile?, timeZone: TimeZone
  ) {
    var shape = NewsboatShape(config: config, timeZone: timeZone)
    // bookmark-cmd first: a bookmark key may come before it in the file.
    let shaping = plan.deferred.filter {
      NewsboatImport.shapeDirectives.contains($0.words.first ?? "")
    }
    let ordered =
      shaping.filter { $0.words.first == "bookmark-cmd" }
      + shaping.filter { $0.words.first != "bookmark-cmd" }
    for (index, words) in ordered {
      shape.carry(words, line: index, in: &plan)
    }
    plan.additions += shape.accepted.map(\.addition)
  }

  private init(config: FeedConfigFile?, timeZone: TimeZone) {
    var sections: [String: ConfigNode.Value] = [:]
    for name in ["keys", "commands", "colors", "highlight"] {
      if let value = config?.root[name]?.value { sections[name] = value }
    }
    existing = sections
    file = config?.path ?? "config.json"
    savedSearches = Set(config?.savedSearches ?? [])
    self.timeZone = timeZone
  }

  /// Translates one line, checks it beside what was carried, and notes the outcome.
  private mutating func carry(_ words: [String], line: Int, in plan: inout NewsboatImport) {
    let translation: Translation
    do {
      translation = try translate(words)
    } catch {
      plan.lines[line].outcome = error.reason
      return
    }
    // A key (or colour) there already in config.json stays as the user wrote it; what an
    // earlier import wrote is not written twice.
    let kept = translation.additions.filter { inFile($0) == nil }
    guard !kept.isEmpty else {
      if translation.additions.allSatisfy({ inFile($0) == true }) {
        plan.existing += 1
        plan.lines[line].carried = true
        plan.lines[line].outcome = "there already: " + translation.outcome
      } else {
        plan.lines[line].outcome = "config.json sets it otherwise already: kept as it is"
      }
      return
    }
    // The last binding of a key wins, as in newsboat.
    let replaced = accepted.filter { old in kept.contains { Self.sameSlot($0, old.addition) } }
    var trial = accepted.filter { old in !kept.contains { Self.sameSlot($0, old.addition) } }
    trial += kept.map { ($0, line) }
    do {
      try check(trial.map(\.addition))
    } catch {
      plan.lines[line].outcome = "would not be read: " + Self.reason(error)
      return
    }
    accepted = trial
    if words[0] == "bookmark-cmd", case .member(_, let name, _)? = kept.first {
      bookmarkCommand = "command:" + name
    }
    for old in replaced where !accepted.contains(where: { $0.line == old.line }) {
      plan.lines[old.line].carried = false
      let before = plan.lines[old.line].text.split(whereSeparator: \.isWhitespace)
      if words[0] == "color", words.count > 1, before.count > 1, before[1] != words[1] {
        // Two elements of newsboat's (listfocus, listfocus_unread) that news draws as one.
        plan.lines[old.line].outcome =
          "news has one colour for \(before[1]) and \(words[1]): line \(plan.lines[line].number)'s"
      } else {
        plan.lines[old.line].outcome =
          "bound again by line \(plan.lines[line].number) (the last wins, as in newsboat)"
      }
    }
    plan.lines[line].carried = true
    plan.lines[line].outcome = translation.outcome
    let skipped = translation.additions.filter { inFile($0) != nil }
    if !skipped.isEmpty {
      plan.lines[line].outcome += " (config.json's own stays: \(Self.describe(skipped)))"
    }
  }

  // MARK: Translations

  private func translate(_ words: [String]) throws(Refusal) -> Translation {
    switch words[0] {
    case "bind-key": return try bindKey(Array(words.dropFirst()))
    case "unbind-key": return try unbindKey(Array(words.dropFirst()))
    case "macro": return try macro(Array(words.dropFirst()))
    case "color": return try color(Array(words.dropFirst()))
    case "highlight": return try highlight(Array(words.dropFirst()))
    case "highlight-article": return try highlightArticle(Array(words.dropFirst()))
    case "bookmark-cmd": return try bookmarkCmd(Array(words.dropFirst()))
    case "browser": return try browser(Array(words.dropFirst()))
    default: throw Refusal(reason: "news has no such setting")
    }
  }

  /// newsboat's operations and the actions of ours that do the same.
  private static let operations: [String: String] = [
    "open": "open", "quit": "back", "hard-quit": "quit", "reload": "reload",
    "reload-all": "reload-all", "mark-feed-read": "mark-all-read",
    "mark-all-above-as-read": "mark-above-read", "next-unread": "next-unread",
    "prev-unread": "prev-unread", "next": "down", "prev": "up", "up": "up", "down": "down",
    "pageup": "page-up", "pagedown": "page-down", "home": "top", "end": "bottom",
    "open-in-browser": "open-link", "open-in-browser-and-mark-read": "open-link", "help": "help",
    "toggle-article-read": "toggle-read", "set-tag": "next-tag", "select-tag": "next-tag",
    "open-search": "filter", "set-filter": "filter", "clear-filter": "clear-filter",
    "next-feed": "next-source", "prev-feed": "prev-source", "enqueue": "download",
    "bookmark": "toggle-bookmark",
  ]

  /// newsboat's contexts and our screens.
  private static let contexts: [String: [KeyMap.Context]] = [
    "feedlist": [.home], "articlelist": [.list], "searchresultslist": [.list],
    "article": [.article], "all": [.home, .list, .article],
  ]

  /// newsboat's key names and ours.
  private static let keyNames: [String: String] = [
    "ENTER": "Enter", "ESC": "Esc", "TAB": "Tab", "BTAB": "S-Tab", "BACKSPACE": "Backspace",
    "SPACE": "Space", "LEFT": "Left", "RIGHT": "Right", "UP": "Up", "DOWN": "Down",
    "PPAGE": "PgUp", "NPAGE": "PgDn", "HOME": "Home", "END": "End", "DEL": "Delete",
    "DC": "Delete", "IC": "Insert",
  ]

  private static func key(_ name: String) -> String {
    if let named = keyNames[name] { return named }
    if name.count >= 2, name.hasPrefix("F"), Int(name.dropFirst()) != nil { return name }
    return name
  }

  /// The screens of newsboat's context (none given: every screen).
  private static func screens(_ context: String?) throws(Refusal) -> [KeyMap.Context] {
    guard let context else { return [.home, .list, .article] }
    guard let screens = contexts[context] else {
      throw Refusal(reason: "news has no \(context) screen (home, list and article are)")
    }
    return screens
  }

  /// The action of newsboat's operation `name`.
  private func action(_ name: String) throws(Refusal) -> String {
    if name == "bookmark", let bookmarkCommand { return bookmarkCommand }
    guard let action = Self.operations[name] else {
      throw Refusal(reason: "news has no action like newsboat's \(name) (docs/shape.md lists ours)")
    }
    return action
  }

  /// Members binding `key` to `value` on each of `screens` where `actions` do something.
  private static func bind(
    _ key: String, _ value: JSONValue, actions: [String], on screens: [KeyMap.Context]
  ) throws(Refusal) -> [NewsboatImport.Addition] {
    let parsed = actions.compactMap(BrowseAction.init)
    let fitting = screens.filter { screen in parsed.allSatisfy { $0.contexts.contains(screen) } }
    guard !fitting.isEmpty else {
      throw Refusal(
        reason: "\(actions.joined(separator: ", ")) does nothing on "
          + screens.map(\.rawValue).joined(separator: " or "))
    }
    return fitting.map { .member(path: ["keys", $0.rawValue], key: key, value: value) }
  }

  private static func describe(_ additions: [NewsboatImport.Addition]) -> String {
    additions.compactMap {
      if case .member(let path, _, _) = $0 { return path.last }
      return nil
    }.joined(separator: ", ")
  }

  private func bindKey(_ words: [String]) throws(Refusal) -> Translation {
    guard words.count == 2 || words.count == 3 else {
      throw Refusal(reason: "bind-key needs a key, an operation and maybe a context")
    }
    let key = Self.key(words[0])
    let action = try action(words[1])
    let additions = try Self.bind(
      key, .string(action), actions: [action],
      on: try Self.screens(words.count == 3 ? words[2] : nil))
    return Translation(
      additions: additions,
      outcome: "key \(key): \(action) on \(Self.describe(additions))")
  }

  private func unbindKey(_ words: [String]) throws(Refusal) -> Translation {
    guard words.count == 1 || words.count == 2 else {
      throw Refusal(reason: "unbind-key needs a key and maybe a context")
    }
    if words[0] == "-a" {
      throw Refusal(
        reason: "news keeps its own defaults: unbind each key with null (docs/shape.md)")
    }
    let key = Self.key(words[0])
    let screens = try Self.screens(words.count == 2 ? words[1] : nil)
    let additions = screens.map {
      NewsboatImport.Addition.member(path: ["keys", $0.rawValue], key: key, value: .null)
    }
    return Translation(
      additions: additions, outcome: "key \(key) unbound on \(Self.describe(additions))")
  }

  /// `macro KEY op [args] ; op …  [-- "description"]`: typed as `,KEY`, as newsboat's macro
  /// prefix. The most common — `set browser "X %u"; open-in-browser; set browser …` — is a
  /// command running X.
  private func macro(_ words: [String]) throws(Refusal) -> Translation {
    guard words.count >= 2 else { throw Refusal(reason: "macro needs a key and operations") }
    var steps: [[String]] = [[]]
    for word in words.dropFirst() {
      if word == "--" { break }
      let ends = word.hasSuffix(";")
      let text = ends ? String(word.dropLast()) : word
      if !text.isEmpty { steps[steps.count - 1].append(text) }
      if ends || word == ";" { steps.append([]) }
    }
    steps.removeAll(where: \.isEmpty)
    var actions: [String] = []
    var commands: [NewsboatImport.Addition] = []
    var browser: String?
    for step in steps {
      if step[0] == "set", step.count == 3, step[1] == "browser" {
        browser = step[2]
        continue
      }
      if step[0] == "set" {
        throw Refusal(
          reason: "its step 'set \(step.dropFirst().first ?? "")' changes a setting; a key "
            + "of news does not")
      }
      if step[0].hasPrefix("open-in-browser"), let program = browser {
        let value = Self.command(program)
        let name = commandName(Self.programName(program), for: value, taken: commands)
        commands.append(.member(path: ["commands"], key: name, value: value))
        actions.append("command:" + name)
        browser = nil
        continue
      }
      actions.append(try action(step[0]))
    }
    guard !actions.isEmpty else { throw Refusal(reason: "macro without an operation") }
    let key = "," + Self.key(words[0])
    let value: JSONValue = .array(actions.map(JSONValue.string))
    let keys = try Self.bind(key, value, actions: actions, on: [.home, .list, .article])
    let made = commands.compactMap {
      if case .member(_, let key, _) = $0 { return "command \(key), " }
      return nil
    }.joined()
    return Translation(
      additions: commands + keys,
      outcome: made + "key \(key): \(actions.joined(separator: ", ")) on \(Self.describe(keys))")
  }

  /// The name of the command `value` (`{"run": …}`) under `stem` (a program's name): one that
  /// runs the same already (an earlier import's), else `stem`, else `stem-2`….
  private func commandName(
    _ stem: String, for value: JSONValue, taken: [NewsboatImport.Addition] = []
  ) -> String {
    let wanted = value.configValue
    if case .object(let members) = existing["commands"],
      let same = members.first(where: { $0.value == wanted })
    {
      return same.key
    }
    let clean = String(
      stem.filter { $0.isASCII && ($0.isLetter || $0.isNumber || "-_".contains($0)) })
    let base = clean.isEmpty ? "command" : clean
    var name = base
    var number = 2
    while existingCommand(name) || taken.contains(where: { Self.isCommand($0, named: name) }) {
      name = "\(base)-\(number)"
      number += 1
    }
    return name
  }

  /// A program's name: the last part of its command's first word.
  private static func programName(_ command: String) -> String {
    command.split(separator: " ").first.map { String($0.split(separator: "/").last ?? $0) } ?? ""
  }

  private func existingCommand(_ name: String) -> Bool {
    if case .object(let members) = existing["commands"], members[name] != nil { return true }
    return accepted.contains { Self.isCommand($0.addition, named: name) }
  }

  private static func isCommand(_ addition: NewsboatImport.Addition, named name: String) -> Bool {
    if case .member(["commands"], name, _) = addition { return true }
    return false
  }

  /// newsboat's browser command (`%u` the link, else the link after it) as a command of ours.
  private static func command(_ program: String) -> JSONValue {
    let link = "\"$NEWS_ITEM_URL\""
    var run = program
    if run.contains("%u") {
      for form in ["'%u'", "\"%u\"", "%u"] { run = run.replacingOccurrences(of: form, with: link) }
    } else {
      run += " " + link
    }
    return .object([("run", .string(run))])
  }

  private func bookmarkCmd(_ words: [String]) throws(Refusal) -> Translation {
    guard words.count == 1, !words[0].isEmpty else {
      throw Refusal(reason: "bookmark-cmd needs a program")
    }
    // newsboat passes the link, the title, the description and the feed's title.
    let run =
      words[0] + " \"$NEWS_ITEM_URL\" \"$NEWS_ITEM_TITLE\" \"\" \"$NEWS_ITEM_SOURCE\""
    let (name, additions) = try command(
      "bookmark", .object([("run", .string(run))]), on: "^B")
    return Translation(
      additions: additions,
      outcome: "command \(name) (\(run)), bound to ^B on list, article; its failures are said")
  }

  /// The command `value` under a name from `stem`, and `key` bound to it on list and article.
  private func command(_ stem: String, _ value: JSONValue, on key: String) throws(Refusal) -> (
    String, [NewsboatImport.Addition]
  ) {
    let name = commandName(stem, for: value)
    let additions: [NewsboatImport.Addition] = [
      .member(path: ["commands"], key: name, value: value)
    ]
    return (
      name,
      additions
        + (try Self.bind(
          key, .string("command:" + name), actions: ["command:" + name], on: [.list, .article]))
    )
  }

  private func browser(_ words: [String]) throws(Refusal) -> Translation {
    guard words.count == 1, !words[0].isEmpty else {
      throw Refusal(reason: "browser needs a program")
    }
    let (name, additions) = try command("browser", Self.command(words[0]), on: "o")
    return Translation(
      additions: additions,
      outcome:
        "command \(name), bound to o on list, article (news open and the other keys use "
        + "$BROWSER)")
  }

  // MARK: Colours

  /// newsboat's elements and ours.
  private static let elements: [String: [String]] = [
    "listnormal": ["read"], "listnormal_unread": ["unread"], "listfocus": ["selection"],
    "listfocus_unread": ["selection"], "info": ["header", "footer"], "title": ["header"],
    "hint-description": ["footer"],
  ]

  /// Elements newsboat has that we draw otherwise.
  private static let otherwise: [String: String] = [
    "background": "news draws on the terminal's own background: set it in the terminal",
    "article": "news styles an article's parts (title, link, quote), not its whole text",
  ]

  /// A style's members from newsboat's `FG BG [ATTR…]`.
  private static func style(_ words: [String]) throws(Refusal) -> (
    members: [(String, JSONValue)], dropped: [String]
  ) {
    guard words.count >= 2 else { throw Refusal(reason: "needs a foreground and a background") }
    var members: [(String, JSONValue)] = []
    for (field, name) in zip(["fg", "bg"], words.prefix(2)) {
      if name.hasPrefix("color"), let number = Int(name.dropFirst(5)), (0...255).contains(number) {
        members.append((field, .int(number)))
      } else if TerminalColor(name: name) != nil {
        if name != "default" { members.append((field, .string(name))) }
      } else {
        throw Refusal(reason: "'\(name)' is no colour of newsboat's")
      }
    }
    var dropped: [String] = []
    let attributes = [
      "bold": "bold", "dim": "dim", "underline": "underline", "reverse": "reverse",
      "standout": "reverse", "italic": "italic",
    ]
    for attribute in words.dropFirst(2) {
      if let ours = attributes[attribute] {
        if !members.contains(where: { $0.0 == ours }) { members.append((ours, .bool(true))) }
      } else {
        dropped.append(attribute)
      }
    }
    return (members, dropped)
  }

  private static func droppedNote(_ dropped: [String]) -> String {
    dropped.isEmpty ? "" : " (\(dropped.joined(separator: ", ")): no such attribute here)"
  }

  private func color(_ words: [String]) throws(Refusal) -> Translation {
    guard words.count >= 3 else {
      throw Refusal(reason: "color needs an element, a foreground and a background")
    }
    if let reason = Self.otherwise[words[0]] { throw Refusal(reason: reason) }
    guard let ours = Self.elements[words[0]] else {
      throw Refusal(reason: "news has no element like newsboat's \(words[0]) (docs/shape.md)")
    }
    let (members, dropped) = try Self.style(Array(words.dropFirst()))
    guard !members.isEmpty else {
      throw Refusal(reason: "default colours without attributes: the theme's already")
    }
    let additions = ours.map {
      NewsboatImport.Addition.member(path: ["colors"], key: $0, value: .object(members))
    }
    return Translation(
      additions: additions,
      outcome: "colours of " + ours.joined(separator: ", ") + Self.droppedNote(dropped))
  }

  /// Whether `pattern` is words (`Swift|Linux`) rather than a regular expression.
  private static func words(_ pattern: String) -> [String]? {
    let words = pattern.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
    let plain = words.allSatisfy { word in
      !word.isEmpty && word.allSatisfy { $0.isLetter || $0.isNumber || " -_'".contains($0) }
    }
    return plain ? words : nil
  }

  private func highlight(_ words: [String]) throws(Refusal) -> Translation {
    guard words.count >= 3 else {
      throw Refusal(reason: "highlight needs a place, a pattern and a foreground")
    }
    // The background may be left out (`highlight all "newsboat" red`): newsboat's `default`.
    let colours = words.count == 3 ? [words[2], "default"] : Array(words.dropFirst(2))
    let (members, dropped) = try Self.style(colours)
    let target = words[0]
    let pattern = words[1]
    var rules: [JSONValue] = []
    var said: [String] = []
    if target == "article" || target == "all" {
      if let list = Self.words(pattern) {
        rules.append(.object([("words", .array(list.map(JSONValue.string)))] + members))
        said.append("words in articles")
      } else if target == "article" {
        throw Refusal(
          reason: "news highlights whole words in an article, not a regular expression")
      }
    }
    if target == "articlelist" || target == "all" {
      guard !pattern.contains("/") else {
        throw Refusal(reason: "a pattern with '/' cannot be a title:/…/ query")
      }
      rules.append(.object([("query", .string("title:/\(pattern)/"))] + members))
      said.append("list rows whose title:/\(pattern)/")
    }
    guard !rules.isEmpty else {
      throw Refusal(reason: "news colours articles and their lists, not the home screen's rows")
    }
    return Translation(
      additions: rules.map { .element(list: "highlight", value: $0) },
      outcome: "highlight of " + said.joined(separator: " and ") + Self.droppedNote(dropped))
  }

  private func highlightArticle(_ words: [String]) throws(Refusal) -> Translation {
    guard words.count >= 3 else {
      throw Refusal(reason: "highlight-article needs an expression, a foreground and a background")
    }
    let query: String
    do {
      query = try NewsboatFilter.translate(words[0])
    } catch {
      throw Refusal(reason: "its expression: " + error.reason)
    }
    let (members, dropped) = try Self.style(Array(words.dropFirst()))
    return Translation(
      additions: [
        .element(list: "highlight", value: .object([("query", .string(query))] + members))
      ],
      outcome: "highlight of list rows matching \(query)" + Self.droppedNote(dropped))
  }

  // MARK: Checking

  /// Whether `config.json` has the slot of `addition` (a key, a colour, a command): `nil` when
  /// it does not, `true` when it holds the same value, `false` when another; a highlight is
  /// there when an equal one is.
  private func inFile(_ addition: NewsboatImport.Addition) -> Bool? {
    switch addition {
    case .element(let list, let value):
      guard case .array(let items) = existing[list] else { return nil }
      return items.contains(value.configValue) ? true : nil
    case .member(let path, let key, let value):
      var present = existing[path[0]]
      for name in path.dropFirst() {
        guard case .object(let members) = present else { return nil }
        present = members[name]
      }
      guard case .object(let members) = present, let held = members[key] else { return nil }
      return held == value.configValue
    }
  }

  /// Whether two additions set the same member (the later replaces the earlier).
  private static func sameSlot(_ a: NewsboatImport.Addition, _ b: NewsboatImport.Addition) -> Bool {
    if case .member(let pathA, let keyA, _) = a, case .member(let pathB, let keyB, _) = b {
      return pathA == pathB && keyA == keyB
    }
    return false
  }

  /// Reads the sections with `additions` laid over them, as the configuration will be read.
  private func check(_ additions: [NewsboatImport.Addition]) throws(ConfigurationError) {
    var sections = existing
    for addition in additions {
      switch addition {
      case .member(let path, let key, let value):
        sections[path[0]] = Self.setting(
          sections[path[0]], at: Array(path.dropFirst()), key: key, to: value.configValue)
      case .element(let list, let value):
        guard case .array(let items) = sections[list] ?? .array([]) else { continue }
        sections[list] = .array(items + [value.configValue])
      }
    }
    func node(_ name: String) -> ConfigNode? {
      sections[name].map { ConfigNode($0, file: file, path: name) }
    }
    let commands = try ArticleCommand.parse(node("commands"))
    _ = try KeyMap(node("keys"), commands: Set(commands.keys), savedSearches: savedSearches)
    _ = try Theme.load(name: nil, colors: node("colors"), themesDirectory: "", file: file)
    _ = try HighlightRule.parse(node("highlight"), timeZone: timeZone)
  }

  private static func setting(
    _ value: ConfigNode.Value?, at path: [String], key: String, to new: ConfigNode.Value
  ) -> ConfigNode.Value {
    var members: [String: ConfigNode.Value] = [:]
    if case .object(let present) = value { members = present }
    if let first = path.first {
      members[first] = setting(members[first], at: Array(path.dropFirst()), key: key, to: new)
    } else if members[key] == nil {
      members[key] = new
    }
    return .object(members)
  }

  private static func reason(_ error: ConfigurationError) -> String {
    if case .invalidConfigFile(_, _, let field, let problem) = error {
      return "field '\(field)' \(problem)"
    }
    return "\(error)"
  }
}

extension JSONValue {
  /// The value as the configuration's reader holds it.
  fileprivate var configValue: ConfigNode.Value {
    switch self {
    case .null: .null
    case .bool(let value): .bool(value)
    case .int(let value): .number(Double(value))
    case .string(let value): .string(value)
    case .array(let items): .array(items.map(\.configValue))
    case .object(let members):
      .object(Dictionary(members.map { ($0.0, $0.1.configValue) }, uniquingKeysWith: { _, b in b }))
    }
  }
}
