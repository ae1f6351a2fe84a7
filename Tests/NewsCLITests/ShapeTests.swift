import Foundation
import NewsCore
import TestSupport
import Testing

@testable import NewsCLI

/// Keys, macros, commands, colours, themes and highlights as data (#44): read, checked, drawn.
@Suite("keys, commands and colours of config.json")
struct ShapeTests {
  static func keyMap(_ json: String, commands: Set<String> = [], searches: Set<String> = [])
    throws -> KeyMap
  {
    try KeyMap(node(json, at: "keys"), commands: commands, savedSearches: searches)
  }

  /// `json` read as `config.json`'s section `section` would be.
  static func node(_ json: String, at section: String) throws -> ConfigNode? {
    try ConfigNode.parse(Data("{\"\(section)\": \(json)}".utf8), file: "config.json")[section]
  }

  @Test(
    "key names: characters, names, Ctrl, sequences",
    arguments: [
      ("J", [Key.character("J")]), ("gg", [.character("g"), .character("g")]),
      ("C-d", [.control("d")]), ("^D", [.control("d")]), ("Enter", [.enter]),
      ("enter", [.enter]), ("Space", [.character(" ")]), (" ", [.character(" ")]),
      ("F5", [.function(5)]), ("S-Tab", [.backTab]), ("C-i", [.tab]),
      ("g Enter", [.character("g"), .enter]),
      ("é", [.character("é")]), ("PgDn", [.pageDown]),
    ] as [(String, [Key])])
  func keyNames(name: String, keys: [Key]) throws {
    #expect(try KeyName.parse(name) == keys)
    // Written back as config.json would, and read again the same.
    #expect(try KeyName.parse(KeyName.describe(keys)) == keys)
  }

  @Test(
    "a key name that is none is refused with a suggestion",
    arguments: ["Entr", "C-c", "C-z", "M-x", "C-1"])
  func badKeyNames(name: String) {
    #expect(throws: KeyName.Problem.self) { try KeyName.parse(name) }
  }

  @Test("every default binding parses, and no default key starts another")
  func defaults() throws {
    let map = KeyMap()
    for (context, bindings) in KeyMap.defaults {
      for (name, action) in bindings {
        #expect(map.lookup(try KeyName.parse(name), in: context) == .actions([.named(action)]))
      }
    }
    _ = try Self.keyMap("{}")
  }

  @Test(
    "mistakes are refused with the field and the way out",
    arguments: [
      (#"{"list": {"x": "toggle-raed"}}"#, "keys.list.x", "did you mean toggle-read?"),
      (#"{"list": {"x": "frobnicate"}}"#, "keys.list.x", "the actions are listed in docs/shape.md"),
      (#"{"list": {"Entr": "open"}}"#, "keys.list.Entr", "did you mean Enter?"),
      (#"{"list": {"gg": "top"}}"#, "keys.list.gg", "'g' (a default on list: top)"),
      (#"{"list": {"Space": "top", " ": "bottom"}}"#, "keys.list", "two actions on one key"),
      (#"{"lst": {"x": "top"}}"#, "keys.lst", "did you mean list?"),
      (#"{"home": {"f": "toggle-full-text"}}"#, "keys.home.f", "only on article"),
      (#"{"list": {"W": "command:walabag"}}"#, "keys.list.W", "did you mean command:wallabag?"),
      (#"{"list": {"x": "open-query:nope"}}"#, "keys.list.x", "saved search 'nope'"),
      (#"{"list": {"x": "filter:tag:"}}"#, "keys.list.x", "cannot be read"),
      (#"{"list": {"x": 3}}"#, "keys.list.x", "a list of them (a macro)"),
      (
        #"{"everywhere": {"x": "top", "xy": "bottom"}}"#, "keys.everywhere.x",
        "cannot start a sequence"
      ),
      (#"["list"]"#, "keys", "must be an object"),
    ] as [(String, String, String)])
  func refused(json: String, field: String, hint: String) throws {
    let node = try Self.node(json, at: "keys")
    do throws(ConfigurationError) {
      _ = try KeyMap(node, commands: ["wallabag"], savedSearches: [])
      Issue.record("accepted: \(json)")
    } catch {
      #expect(error.exitCode == .configuration)
      #expect(error.message.contains("field '\(field)"), "\(error.message)")
      #expect(error.message.contains(hint), "\(error.message)")
    }
  }

  @Test("an everywhere binding applies on each screen; a screen's own and null win over it")
  func everywhere() throws {
    let map = try Self.keyMap(
      #"{"everywhere": {"W": "command:w", "?": null}, "list": {"W": "toggle-read", "?": "help"}}"#,
      commands: ["w"])
    #expect(map.lookup([.character("W")], in: .article) == .actions([.command("w")]))
    #expect(map.lookup([.character("W")], in: .list) == .actions([.named(.toggleRead)]))
    #expect(map.lookup([.character("?")], in: .home) == .unbound)
    #expect(map.lookup([.character("?")], in: .list) == .actions([.named(.help)]))
  }

  /// A list of three articles 1, 3 and 50 days old, on a list of the source `blog`.
  static func state(_ keys: String = "{}", commands: Set<String> = []) throws -> BrowseState {
    var state = BrowseState(channels: ["articles", "blog", "news", "unread-rust"], timeZone: .gmt)
    state.sources = [1, 2]
    state.keys = try keyMap(keys, commands: commands, searches: ["unread-rust"])
    state.now = BrowseTests.now
    state.resize(width: 80, height: 12)
    state.home = (0..<4).map { _ in .init(unread: 1, total: 1, status: "fresh") }
    state.channel = 1
    state.screen = .list
    let articles = [1, 3, 50].map { days in
      Article(
        id: "b-\(days)", provider: "blog", title: "Swift story \(days)", publisher: "Blog",
        url: "https://b.example/\(days)",
        publishedAt: BrowseTests.now.addingTimeInterval(-86_400 * Double(days) + 60))
    }
    state.loaded(heading: "blog", freshness: "fresh", articles: articles, read: [], bookmarked: [])
    return state
  }

  @Test("a macro runs its actions in order; a sequence waits for its second key")
  func macroAndSequence() throws {
    var state = try Self.state(
      #"{"list": {"x": ["toggle-bookmark", "down"], "g": null, "gg": "top"}}"#)
    #expect(state.handle(.character("x")) == [.setBookmark(state.articles[0], true)])
    #expect(state.selection == 1 && state.bookmarked == ["b-1"])
    #expect(state.handle(.character("g")).isEmpty)
    #expect(state.message == "g…" && state.selection == 1)
    _ = state.handle(.character("g"))
    #expect(state.selection == 0)
    // A sequence that is not bound says so and is dropped.
    _ = state.handle(.character("g"))
    _ = state.handle(.character("q"))
    #expect(state.message == "gq does nothing here (? lists the keys)")
    #expect(state.screen == .list)
  }

  @Test("toggle-read, mark-above-read and mark-older-read with a count; undo takes them back")
  func marks() throws {
    var state = try Self.state(#"{"list": {"M": "mark-older-read", "U": "mark-above-read"}}"#)
    #expect(state.handle(.character("m")) == [.setRead(["b-1"], true)])
    #expect(state.handle(.character("m")) == [.setRead(["b-1"], false)])
    // A day by default: 3 and 50 days old; 7M: only the one of 50 days.
    #expect(state.handle(.character("7")).isEmpty)
    #expect(state.message == "7: a count for the next key")
    #expect(state.handle(.character("M")) == [.setRead(["b-50"], true)])
    #expect(state.message == "marked 1 read (u undoes)")
    #expect(state.handle(.character("u")) == [.setRead(["b-50"], false)])
    #expect(state.handle(.character("M")) == [.setRead(["b-3", "b-50"], true)])
    _ = state.handle(.character("G"))
    #expect(state.handle(.character("U")) == [.setRead(["b-1"], true)])
    #expect(state.handle(.character("U")).isEmpty)
    #expect(state.message == "no unread article above")
  }

  @Test("J and K go from source to source; open-query: and filter: and command: do what they name")
  func argumentActions() throws {
    var state = try Self.state(
      #"{"list": {"S": "open-query:unread-rust", "F": "filter:title:50", "W": "command:w"}}"#,
      commands: ["w"])
    #expect(state.handle(.character("J")).first == .load(channel: 2, refresh: false))
    state.screen = .list
    #expect(state.handle(.character("J")).first == .load(channel: 1, refresh: false))
    #expect(state.handle(.character("K")).first == .load(channel: 2, refresh: false))
    var query = try Self.state(
      #"{"list": {"S": "open-query:unread-rust", "F": "filter:title:50", "W": "command:w"}}"#,
      commands: ["w"])
    _ = query.handle(.character("F"))
    #expect(query.visible.map(\.id) == ["b-50"])
    #expect(query.handle(.character("W")) == [.runCommand("w", query.visible[0])])
    #expect(query.handle(.character("S")).first == .load(channel: 3, refresh: false))
  }

  @Test("the footer and the keys screen are drawn from the bindings in force")
  func footerFromBindings() throws {
    var state = try Self.state(#"{"list": {"o": "open", "Enter": null, "l": null, "Right": null}}"#)
    let renderer = BrowseRenderer(
      styled: false, unicode: true, now: BrowseTests.now, timeZone: .gmt)
    let grid = renderer.render(state)
    #expect(grid.text(grid.height - 1).contains("o read"))
    _ = state.handle(.character("?"))
    let help = renderer.render(state)
    let text = (0..<help.height).map { help.text($0) }.joined(separator: "\n")
    #expect(text.contains("  o ") && text.contains("open the list; read the article"))
  }

  @Test(
    "colours are drawn as the terminal can: truecolor, 256, 16, 8, none",
    arguments: [
      (TerminalColor.rgb(255, 0, 0), ColorDepth.trueColor, "38;2;255;0;0"),
      (.rgb(255, 0, 0), .palette256, "38;5;196"), (.rgb(255, 0, 0), .sixteen, "91"),
      (.rgb(255, 0, 0), .basic, "31"), (.indexed(12), .sixteen, "94"), (.indexed(12), .basic, "34"),
      (.indexed(200), .palette256, "38;5;200"), (.terminalDefault, .basic, "39"),
    ] as [(TerminalColor, ColorDepth, String)])
  func depths(color: TerminalColor, depth: ColorDepth, code: String) {
    #expect(ScreenDiff.color(color, background: false, depth: depth) == code)
  }

  @Test(
    "the depth is what tput colors prints, else TERM's; only the terminal's variables reach tput",
    arguments: [
      ("echo 16", "xterm-256color", ColorDepth.sixteen),
      ("echo 256", "xterm", .palette256),
      ("echo 8", "xterm-256color", .basic),
      ("echo -1", "xterm-256color", .none),
      // tput failing, or printing no number: TERM says.
      ("exit 3", "xterm-256color", .palette256), ("exit 3", "vt100", .basic),
      ("echo many", "vt100", .basic),
      // It is asked with its TERM, and without news's other variables (NEWS_STORE_KEY).
      (#"[ "$TERM" = screen ] && [ -z "$NEWS_STORE_KEY" ] && echo 16"#, "screen", .sixteen),
    ] as [(String, String, ColorDepth)])
  func tputDepth(script: String, term: String, depth: ColorDepth) throws {
    let directory = TemporaryDirectory()
    try directory.writeExecutable("tput", "#!/bin/sh\n\(script)\n")
    let environment = ["PATH": directory.url.path, "TERM": term, "NEWS_STORE_KEY": "k"]
    #expect(ColorDepth.detect(environment: environment) == depth)
  }

  @Test("a style change writes only what differs; turning something off resets first")
  func minimalEscapes() {
    let bold = TextStyle(bold: true)
    let boldRed = TextStyle(foreground: .indexed(1), bold: true)
    #expect(ScreenDiff.sgr(from: .plain, to: bold, depth: .basic) == "\u{1B}[1m")
    #expect(ScreenDiff.sgr(from: bold, to: boldRed, depth: .basic) == "\u{1B}[31m")
    #expect(
      ScreenDiff.sgr(from: boldRed, to: TextStyle(foreground: .indexed(1)), depth: .basic)
        == "\u{1B}[0;31m")
    #expect(ScreenDiff.sgr(from: bold, to: bold, depth: .basic).isEmpty)
    // A changed cell is written alone (with its cursor move), not its whole row.
    var old = ScreenGrid(width: 40, height: 2)
    old.put(String(repeating: "a", count: 40), row: 1)
    var new = old
    new.put("b", row: 1, column: 30, boldRed)
    #expect(
      ScreenDiff.ansi(from: old, to: new, styled: true) == "\u{1B}[2;31H\u{1B}[1;31mb\u{1B}[0m")
    #expect(ScreenDiff.ansi(from: old, to: new, styled: false) == "\u{1B}[2;31Hb")
  }

  @Test("themes: built-in, from a file with a base, colours over them; mistakes refused")
  func themes() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "themes-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try Data(#"{"base": "dark", "colors": {"title": {"fg": 208}}}"#.utf8).write(
      to: directory.appendingPathComponent("mine.json"))
    let mine = try Theme.load(
      name: "mine", colors: Self.node(#"{"title": {"bold": false}}"#, at: "colors"),
      themesDirectory: directory.path,
      file: "config.json")
    #expect(mine[.title] == TextStyle(foreground: .indexed(208), bold: false))
    #expect(mine[.header] == Theme.builtIn("dark")?[.header])
    #expect(
      try Theme.load(name: "mono", colors: nil, themesDirectory: "/", file: "c")[.source] == .plain)
    #expect(throws: ConfigurationError.self) {
      try Theme.load(name: "nope", colors: nil, themesDirectory: directory.path, file: "c")
    }
    #expect(throws: ConfigurationError.self) {
      try Theme.load(
        name: nil, colors: Self.node(#"{"title": {"fg": true}}"#, at: "colors"),
        themesDirectory: "/", file: "c")
    }
    #expect(throws: ConfigurationError.self) {
      try Theme.load(
        name: nil, colors: Self.node(#"{"title": {"blink": true}}"#, at: "colors"),
        themesDirectory: "/", file: "c")
    }
  }

  @Test("a highlight's query colours the rows it matches; its words, the article's text")
  func highlights() throws {
    let rules = try HighlightRule.parse(
      Self.node(
        #"[{"query": "title:50", "fg": "red"}, {"words": ["swift"], "bg": 4}]"#, at: "highlight"),
      timeZone: .gmt)
    var state = try Self.state()
    let renderer = BrowseRenderer(
      styled: true, unicode: true, now: BrowseTests.now, timeZone: .gmt, highlights: rules)
    let grid = renderer.render(state)
    #expect(grid.rows[3][10].style.foreground == .indexed(1), "row of b-50")
    #expect(grid.rows[2][10].style.foreground == nil)
    _ = state.handle(.enter)
    let article = renderer.render(state)
    let title = article.rows[1]
    #expect(title[2].style.background == .indexed(4) && title[2].text == "S")
    #expect(title[8].style.background == nil, "after the word")
    #expect(
      HighlightRule.occurrences(of: ["swift"], in: "Swifty swift, SWIFT.") == [7..<12, 14..<19])
    // Accents fold as search folds them, both ways.
    #expect(HighlightRule.occurrences(of: ["cafe"], in: "Un café, un Cafe.") == [3..<7, 12..<16])
    #expect(HighlightRule.occurrences(of: ["Zürich"], in: "zurich") == [0..<6])
  }

  @Test("news send: the article on standard input; a failing command is exit 69 naming it")
  func send() async throws {
    let harness = try Harness()
    harness.server.route("/v2/top-headlines", .fixture("top-headlines-us-2022-02-17.json"))
    let received = harness.home.path("received")
    let file = try harness.home.write(
      "config.json",
      #"{"commands": {"save": {"run": "cat > '\#(received)'; echo \"$NEWS_ITEM_ID\" >> '\#(received)'"}, "#
        + #""fail": {"run": "exit 4", "input": "text"}}}"#)
    await harness.succeed(["headlines"], environment: ["NEWS_CONFIG": file])
    let sent = await harness.run(["send", "save", "1"], environment: ["NEWS_CONFIG": file])
    #expect(sent.code == .success, "\(sent.err)")
    #expect(sent.out.hasPrefix("sent to save: "))
    let lines = try String(contentsOfFile: received, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 2 && lines[0].hasPrefix("https://"))
    let failed = await harness.run(["send", "fail", "1"], environment: ["NEWS_CONFIG": file])
    #expect(failed.code == .unavailable)
    #expect(failed.err.contains("command 'fail' failed (exit 4)"))
    let unknown = await harness.run(["send", "sav", "1"], environment: ["NEWS_CONFIG": file])
    #expect(unknown.code == .usage)
    #expect(unknown.err.contains("did you mean save?"))
    let keys = await harness.run(["keys"], environment: ["NEWS_CONFIG": file])
    #expect(keys.out.contains("toggle-read"))
  }

  @Test(
    "a mistake in keys, colours or commands is exit 78 for every command, before any request",
    arguments: [["headlines"], ["feed"], ["sources"], ["keys"], ["search", "x"]])
  func everyCommandRefuses(arguments: [String]) async throws {
    let harness = try Harness()
    let file = try harness.home.write(
      "config.json",
      #"{"keys": {"list": {"x": "toggle-raed"}}, "colors": {"title": {"fg": "rde"}}}"#)
    let result = await harness.run(arguments, environment: ["NEWS_CONFIG": file])
    #expect(result.code == .configuration)
    #expect(result.err.contains("field 'keys.list.x'") || result.err.contains("field 'colors"))
    #expect(result.err.contains("did you mean"))
    #expect(harness.server.requests.isEmpty)
  }

  @Test("a lone surrogate anywhere in config.json is exit 78, never five sections ignored")
  func loneSurrogate() async throws {
    let harness = try Harness()
    let file = try harness.home.write(
      "config.json",
      #"{"note": "\ud800", "commands": {"w": {"run": "cat"}}, "keys": {"list": {"W": "command:w"}}}"#
    )
    for arguments in [["send", "w", "1"], ["keys"], ["sources"]] {
      let result = await harness.run(arguments, environment: ["NEWS_CONFIG": file])
      #expect(result.code == .configuration, "\(arguments)")
      #expect(result.err.contains("is not valid JSON"), "\(result.err)")
      #expect(result.err.split(separator: "\n").count == 1)
    }
    #expect(harness.server.requests.isEmpty)
  }

  @Test("docs/shape.md's table says of every action the screens the code lets it run on")
  func documentedScreens() throws {
    let page = try String(
      contentsOf: ReadmeTests.root.appendingPathComponent("docs/shape.md"), encoding: .utf8)
    let rows = page.split(separator: "\n").filter { $0.hasPrefix("| `") }
    var checked = 0
    for row in rows {
      let cells = row.split(separator: "|", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard cells.count >= 5 else { continue }
      let screens = cells[3]
      let documented: Set<KeyMap.Context> =
        screens == "all"
        ? [.home, .list, .article]
        : Set(
          screens.split(separator: ",").compactMap {
            KeyMap.Context(rawValue: $0.trimmingCharacters(in: .whitespaces))
          })
      guard !documented.isEmpty else { continue }
      for name in cells[1].split(separator: " ").map({ $0.trimmingCharacters(in: ["`"]) }) {
        let action: BrowseAction
        if let named = BrowseAction.Name(rawValue: name) {
          action = .named(named)
        } else if name.hasPrefix("open-query:") {
          action = .openQuery("x")
        } else if name.hasPrefix("filter:") {
          action = .filter("x")
        } else if name.hasPrefix("command:") {
          action = .command("x")
        } else {
          continue
        }
        #expect(action.contexts == documented, "docs/shape.md's row of \(name): \(screens)")
        checked += 1
      }
    }
    #expect(checked >= BrowseAction.Name.allCases.count + 3)
  }

  @Test("every action is in docs/shape.md's table, and every element")
  func documented() throws {
    let page = try String(
      contentsOf: ReadmeTests.root.appendingPathComponent("docs/shape.md"), encoding: .utf8)
    for name in BrowseAction.Name.allCases {
      #expect(page.contains("`\(name.rawValue)`"), "docs/shape.md lacks \(name.rawValue)")
    }
    for element in Theme.Element.allCases {
      #expect(page.contains("`\(element.rawValue)`"), "docs/shape.md lacks \(element.rawValue)")
    }
  }

  @Test("the keys screen says what undo undoes: every mark of many, as the code does")
  func undoSummary() {
    let undo = BrowseAction.named(.undo).summary
    for mark in [BrowseAction.Name.markAllRead, .markAboveRead, .markOlderRead] {
      #expect(undo.contains(mark.rawValue), "\(undo)")
      #expect(BrowseAction.named(mark).summary.contains("undo"), "\(mark.rawValue)")
    }
  }
}
