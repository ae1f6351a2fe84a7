import FeedParsing
import Foundation

/// `news import newsboat`: a newsboat setup read from its directory and made `config.json`
/// entries. Every line of `urls` and `config` is either carried (saying as what) or listed as
/// not carried (saying why); nothing is silently dropped, and running it twice adds nothing.
///
/// Carried: each `urls` line (web feeds with their tags and `~title`, `exec:` and `filter:`
/// sources, `query:` feeds as saved searches with their filter translated), `reload-time` and
/// `max-items` (onto the sources imported), `ignore-article` (ignore rules, the expression
/// translated), `notify-program` (a `newItem` hook) and `include` (followed). The lines that
/// shape the reader (keys, colours…) are ``deferred`` to the reader's layer, which knows them.
public struct NewsboatImport: Sendable {
  /// One line of newsboat's files and what became of it.
  public struct Line: Sendable, Equatable {
    /// `urls`, `config`, or an included file, relative to the directory.
    public var file: String
    /// Its number, from 1 (0 for a whole file).
    public var number: Int
    /// The line as written.
    public var text: String
    /// Whether it was carried.
    public var carried: Bool
    /// As what it was carried, or why not.
    public var outcome: String
  }

  /// The directory read.
  public var directory: String
  /// The home directory an included file's `~/` stands for, as newsboat expands it.
  var home: String?
  /// Every line, in the files' order.
  public var lines: [Line] = []
  /// The sources to add (`config.json` entries), saved searches among them.
  public var entries: [JSONValue] = []
  /// How many of `entries` are sources and saved searches.
  public var sourceCount = 0
  public var searchCount = 0
  /// `cache.db`'s articles and their state (`nil`: none, or it could not be read).
  public var cache: NewsboatCache?
  /// The sources by their feed's address (normalized), those imported among them: where
  /// `cache.db`'s articles go.
  var sourceByFeed: [String: String] = [:]
  /// The ignore rules to add.
  public var ignoreRules: [IgnoreRule] = []
  /// Lines naming a source there is already.
  public var existing = 0
  /// The `newItem` hook `notify-program` becomes (`nil`: none).
  public var newItemHook: String?
  /// Lines of `config` that shape `news browse` (keys, macros, colours, highlights, commands,
  /// the browser): indices into ``lines`` with the line's words, for the reader's layer to
  /// translate (it knows the actions and colours); until it does, each says "not translated".
  /// The settings news has none of are deferred too (``noSuchSetting``): the reader's layer
  /// says where news does what they ask, when it does.
  public var deferred: [(line: Int, words: [String])] = []
  /// What a setting news has nothing of says.
  public static let noSuchSetting = "news has no such setting"
  /// The settings of newsboat's account (`ttrss-url`, `ttrss-login`, `ttrss-passwordfile`…),
  /// for `urls-source`'s line, which is deferred with the reader's.
  public var accountSettings: [String: String] = [:]
  /// The services `urls-source` may name whose settings are kept in ``accountSettings``.
  public static let accountServices: Set<String> = [
    "ttrss", "miniflux", "ocnews", "freshrss", "feedbin", "oldreader", "inoreader", "newsblur",
    "feedhq", "opml",
  ]
  /// What else to add to `config.json` (the deferred lines' translations).
  public var additions: [Addition] = []

  /// A value added to `config.json`: a member of an object (made when missing; a key there
  /// already is left as it is), or an element of a top-level list.
  public enum Addition: Sendable {
    case member(path: [String], key: String, value: JSONValue)
    case element(list: String, value: JSONValue)
  }

  /// The distinct tags of the sources and saved searches to add.
  public var tagCount: Int {
    Set(
      entries.flatMap { entry -> [String] in
        guard case .object(let members) = entry,
          case .array(let tags)? = members.first(where: { $0.0 == "tags" })?.1
        else { return [] }
        return tags.compactMap {
          if case .string(let tag) = $0 { return tag }
          return nil
        }
      }
    ).count
  }

  /// The kinds of ``additions``, for the report.
  public enum Kind: Sendable {
    case keys, colors, highlights, commands
  }

  /// How many of ``additions`` are of `kind` (keys are counted per screen bound).
  public func count(_ kind: Kind) -> Int {
    additions.filter { addition in
      switch (kind, addition) {
      case (.keys, .member(let path, _, _)): path.first == "keys"
      case (.colors, .member(let path, _, _)): path == ["colors"]
      case (.commands, .member(let path, _, _)): path == ["commands"]
      case (.highlights, .element(let list, _)): list == "highlight"
      default: false
      }
    }.count
  }

  /// The directives of `config` left to the reader's layer (``deferred``).
  public static let shapeDirectives: Set<String> = [
    "bind-key", "unbind-key", "macro", "color", "highlight", "highlight-article",
    "bookmark-cmd", "browser",
  ]

  /// Where newsboat keeps its files: `given`, else `~/.newsboat`, else
  /// `$XDG_CONFIG_HOME/newsboat` (`~/.config/newsboat`); `nil` and the places looked at when
  /// none exists.
  public static func directory(_ given: String?, environment: [String: String]) -> (
    found: String?, looked: [String]
  ) {
    let home = environment["HOME"] ?? NSHomeDirectory()
    let config =
      environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
    let places = given.map { [$0] } ?? [home + "/.newsboat", config + "/newsboat"]
    var isDirectory: ObjCBool = false
    let found = places.first {
      FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && isDirectory.boolValue
    }
    return (found, places)
  }

  /// Where newsboat keeps `cache.db` for `directory`: beside `urls`, else (for
  /// `$XDG_CONFIG_HOME/newsboat`) in `$XDG_DATA_HOME/newsboat` (`~/.local/share/newsboat`).
  public static func cachePath(for directory: String, environment: [String: String]) -> String {
    let beside = (directory as NSString).appendingPathComponent("cache.db")
    guard !FileManager.default.fileExists(atPath: beside) else { return beside }
    let home = environment["HOME"] ?? NSHomeDirectory()
    let config =
      environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
    guard
      (directory as NSString).standardizingPath
        == (config + "/newsboat" as NSString).standardizingPath
    else { return beside }
    let data =
      environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/share"
    return data + "/newsboat/cache.db"
  }

  /// The plan for the setup in `directory` (`cache.db` at `cachePath`), given the sources there
  /// are now.
  static func plan(
    directory: String, cachePath: String? = nil, home: String? = nil, sources: [FeedSource],
    reserved: Set<String>, hasNewItemHook: Bool
  ) -> NewsboatImport {
    var plan = NewsboatImport(directory: directory)
    plan.home = home
    var settings = Settings()
    var ignoreLines: [(Line, feed: String, expression: String)] = []
    plan.readConfig(
      "config", depth: 0, settings: &settings, ignores: &ignoreLines,
      hasNewItemHook: hasNewItemHook)
    var names = SubscriptionService.NameAllocator(
      taken: Set(sources.map(\.name)).union(reserved))
    // The feeds of each host, here and in `urls`: a host with several names each by its address.
    let listed = plan.read("urls").map { text in
      text.textFileLines.compactMap { line in
        line.split(whereSeparator: \.isWhitespace).first.flatMap { URL.feed(String($0)) }
      }
    }
    names.count(sources.map(\.url) + (listed ?? []))
    var byURL = Dictionary(
      sources.map { (SubscriptionService.normalized($0.url), $0.name) },
      uniquingKeysWith: { a, _ in a })
    let searches = Set(sources.compactMap(\.search))
    let commands = Set(sources.compactMap { $0.command?.command })
    if let text = plan.read("urls") {
      for (offset, raw) in text.textFileLines.enumerated() {
        let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !line.isEmpty, !line.hasPrefix("#") else { continue }
        var entry = Line(file: "urls", number: offset + 1, text: line, carried: false, outcome: "")
        defer { plan.lines.append(entry) }
        let words: [String]
        do {
          words = try SubscriptionFile.newsboatWords(line, line: offset + 1)
        } catch {
          entry.outcome = error.detail
          continue
        }
        let attributes = SubscriptionFile.NewsboatAttributes(words.dropFirst())
        let (tags, title, hidden) = (attributes.tags, attributes.title, attributes.hidden)
        let first = words[0]
        var members: [(String, JSONValue)] = []
        var address: URL
        if first.hasPrefix("query:") {
          let parts = first.dropFirst("query:".count).split(
            separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
          guard parts.count == 2, !parts[0].isEmpty else {
            entry.outcome = "a query: line needs query:<name>:<filter>"
            continue
          }
          let query: String
          do {
            query = try NewsboatFilter.translate(String(parts[1]))
            try ArticleQuery.check(query)
          } catch let refusal as NewsboatFilter.Refusal {
            entry.outcome = "its filter: " + refusal.reason
            continue
          } catch {
            entry.outcome = "its filter made a query that cannot be read: \(error)"
            continue
          }
          if searches.contains(query) {
            plan.existing += 1
            entry.carried = true
            entry.outcome = "a saved search there is already"
            continue
          }
          let name = names.take(
            SubscriptionService.baseName(from: String(parts[0]), url: SavedSearchAdapter.url(query))
          )
          members = [("name", .string(name)), ("search", .string(query))]
          if !tags.isEmpty { members.append(("tags", .array(tags.map(JSONValue.string)))) }
          plan.entries.append(.object(members))
          plan.searchCount += 1
          entry.carried = true
          entry.outcome = "saved search \(name): \(query)"
          continue
        } else if first.hasPrefix("exec:") {
          let command = String(first.dropFirst("exec:".count))
          guard !command.trimmingCharacters(in: .whitespaces).isEmpty else {
            entry.outcome = "an exec: line without a command"
            continue
          }
          if commands.contains(command) {
            plan.existing += 1
            entry.carried = true
            entry.outcome = "an exec source there is already"
            continue
          }
          address = SourceCommand.url(command)
          let program = command.split(separator: " ").first.map {
            String($0.split(separator: "/").last ?? $0)
          }
          let name = names.take(SubscriptionService.baseName(from: title ?? program, url: address))
          members = [("name", .string(name)), ("exec", .string(command))]
          entry.outcome = "source \(name) (exec)"
        } else if first.hasPrefix("filter:") {
          let rest = first.dropFirst("filter:".count)
          guard let split = rest.range(of: ":http", options: .backwards),
            let url = URL.web(String(rest[rest.index(after: split.lowerBound)...]))
          else {
            entry.outcome = "a filter: line needs filter:<command>:<http(s) URL>"
            continue
          }
          let command = String(rest[..<split.lowerBound])
          address = url
          if byURL[SubscriptionService.normalized(url)] != nil {
            plan.existing += 1
            entry.carried = true
            entry.outcome = "a source there is already"
            continue
          }
          let name = names.take(title: title, url: url)
          members = [
            ("name", .string(name)), ("url", .string(url.absoluteString)),
            ("filter", .string(command)),
          ]
          entry.outcome = "source \(name) (filter)"
        } else if let url = URL.feed(first) {
          address = url
          if let known = byURL[SubscriptionService.normalized(url)] {
            plan.existing += 1
            entry.carried = true
            entry.outcome = "source \(known), there already"
            continue
          }
          let name = names.take(title: title, url: url)
          members = [("name", .string(name)), ("url", .string(url.absoluteString))]
          entry.outcome = "source \(name)"
        } else {
          entry.outcome = "'\(first.prefix(80))' is not an http(s) URL, exec:, filter: or query:"
          continue
        }
        byURL[SubscriptionService.normalized(address)] = members.first.map {
          if case .string(let name) = $0.1 { return name }
          return ""
        }
        // newsboat's `~Title`: the title its lists (and an OPML export, and the apps of
        // `news serve`) show.
        if let title = Optional(TerminalSanitizer.clean(title ?? "")).nonEmpty,
          case .string(let name) = members.first?.1, title != name
        {
          members.insert(("title", .string(title)), at: 1)
        }
        if !tags.isEmpty {
          members.append(("tags", .array(tags.map(JSONValue.string))))
          entry.outcome += ", tags " + tags.joined(separator: ", ")
        }
        if let minutes = settings.reloadMinutes {
          members.append(("ttl", .int(minutes * 60)))
        }
        if let maxItems = settings.maxItems { members.append(("maxItems", .int(maxItems))) }
        if hidden {
          members.append(("hidden", .bool(true)))
          entry.outcome += ", hidden (found by queries and tag lists, not in the plain feed)"
        }
        plan.entries.append(.object(members))
        plan.sourceCount += 1
        entry.carried = true
      }
    }
    for (line, feed, expression) in ignoreLines {
      var line = line
      defer { plan.lines.append(line) }
      var source: String?
      if feed != "*" {
        guard let url = URL.feed(feed), let name = byURL[SubscriptionService.normalized(url)] else {
          line.outcome = "its feed \(feed) is no source here"
          continue
        }
        source = name
      }
      do {
        let query = try NewsboatFilter.translate(expression)
        try ArticleQuery.check(query)
        let rule = IgnoreRule(field: .query, pattern: query, source: source)
        if rule.problem == nil {
          plan.ignoreRules.append(rule)
          line.carried = true
          line.outcome = "ignore rule: " + query + (source.map { " (source \($0))" } ?? "")
        } else {
          line.outcome = rule.problem ?? ""
        }
      } catch let refusal as NewsboatFilter.Refusal {
        line.outcome = "its expression: " + refusal.reason
      } catch {
        line.outcome = "its expression made a query that cannot be read: \(error)"
      }
    }
    plan.sourceByFeed = byURL
    plan.readCache(cachePath ?? (directory as NSString).appendingPathComponent("cache.db"))
    return plan
  }

  /// Reads `cache.db` (beside `urls`, else in `$XDG_DATA_HOME/newsboat`), noting the outcome.
  private mutating func readCache(_ path: String) {
    guard FileManager.default.fileExists(atPath: path) else { return }
    let name = path.hasPrefix(directory + "/") ? "cache.db" : path
    var line = Line(file: name, number: 0, text: "", carried: false, outcome: "")
    defer { lines.append(line) }
    do {
      let read = try NewsboatCache.read(path)
      cache = read
      line.carried = true
      line.outcome =
        "\(read.items.count.counted("article's", plural: "articles'")) state: \(read.readCount) read, \(read.flaggedCount) "
        + "flagged (bookmarked here); those not here kept"
    } catch {
      line.outcome = error.detail + ": its read and flagged state is not carried"
    }
  }

  /// What `config` says that applies to every source imported.
  private struct Settings {
    var reloadMinutes: Int?
    var maxItems: Int?
  }

  /// Reads `config` (and what it includes), noting each line.
  private mutating func readConfig(
    _ file: String, depth: Int, settings: inout Settings,
    ignores: inout [(Line, feed: String, expression: String)], hasNewItemHook: Bool
  ) {
    guard let text = read(file) else { return }
    for (offset, raw) in text.textFileLines.enumerated() {
      let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !line.isEmpty, !line.hasPrefix("#") else { continue }
      var entry = Line(file: file, number: offset + 1, text: line, carried: false, outcome: "")
      let words: [String]
      do {
        words = try SubscriptionFile.newsboatWords(line, line: offset + 1)
      } catch {
        entry.outcome = error.detail
        lines.append(entry)
        continue
      }
      let directive = words.first ?? ""
      switch directive {
      case "reload-time":
        if words.count == 2, let minutes = Int(words[1]), minutes > 0 {
          settings.reloadMinutes = minutes
          entry.carried = true
          entry.outcome = "ttl \(minutes * 60) s on the sources imported"
        } else {
          entry.outcome = "reload-time needs a number of minutes"
        }
      case "max-items":
        if words.count == 2, let count = Int(words[1]), count >= 0 {
          settings.maxItems = count > 0 ? count : nil
          entry.carried = true
          entry.outcome =
            count > 0 ? "maxItems \(count) on the sources imported" : "no limit (as here)"
        } else {
          entry.outcome = "max-items needs a number"
        }
      case "ignore-article":
        if words.count == 3 {
          ignores.append((entry, words[1], words[2]))
          continue
        }
        entry.outcome = "ignore-article needs a feed (or *) and an expression"
      case "notify-program":
        if words.count == 2, !words[1].isEmpty {
          if hasNewItemHook {
            entry.outcome = "config.json has a newItem hook already: kept as it is"
          } else {
            newItemHook = words[1] + " \"$NEWS_ITEM_SOURCE: $NEWS_ITEM_TITLE\""
            entry.carried = true
            entry.outcome =
              "newItem hook: \(newItemHook ?? "") (once a new item, where newsboat says a reload's count)"
          }
        } else {
          entry.outcome = "notify-program needs a program"
        }
      case "include":
        if words.count == 2, depth < 8 {
          guard FileManager.default.fileExists(atPath: path(of: words[1])) else {
            entry.outcome = "no such file: \(path(of: words[1]))"
            break
          }
          lines.append(
            Line(file: file, number: offset + 1, text: line, carried: true, outcome: "followed"))
          readConfig(
            words[1], depth: depth + 1, settings: &settings, ignores: &ignores,
            hasNewItemHook: hasNewItemHook)
          continue
        }
        entry.outcome = depth < 8 ? "include needs a file" : "includes nested too deep"
      default:
        let service = String(directive.prefix { $0 != "-" })
        let setting = directive.dropFirst(service.count)
        if Self.accountServices.contains(service), words.count == 2,
          ["-url", "-login", "-passwordfile", "-passwordeval", "-password"].contains(setting)
        {
          // A file's or a command's name is kept to say how to add the account; never a
          // password.
          if setting != "-password" { accountSettings[directive] = words[1] }
        }
        if directive == "urls-source" {
          entry.outcome = "not translated: an account (docs/accounts.md)"
          deferred.append((lines.count, words))
        } else if ["-url", "-login"].contains(setting), Self.accountServices.contains(service) {
          entry.outcome =
            "the \(service) account's \(setting.dropFirst()): urls-source's line says how to add it"
        } else if let suffix = ["-passwordeval", "-passwordfile", "-password"].first(where: {
          directive.hasSuffix($0)
        }) {
          entry.text = directive + " …"
          entry.outcome =
            "a password (\(suffix.dropFirst())) is never imported: it is asked when the "
            + "account is added (docs/accounts.md)"
        } else if Self.shapeDirectives.contains(directive) {
          entry.outcome = "not translated: written by hand in config.json (docs/shape.md)"
          deferred.append((lines.count, words))
        } else {
          if let counterpart = NewsboatEnvironment.counterpart(words) {
            entry.outcome = counterpart
          } else {
            // The reader's layer says where a behaviour news has another way went.
            entry.outcome = Self.noSuchSetting
            deferred.append((lines.count, words))
          }
        }
      }
      lines.append(entry)
    }
  }

  /// Where `file` is: absolute, `~/` in the home directory, else relative to the directory.
  private func path(of file: String) -> String {
    if file.hasPrefix("/") { return file }
    if let home, file.hasPrefix("~/") { return home + file.dropFirst() }
    return (directory as NSString).appendingPathComponent(file)
  }

  /// The text of `file` (``path(of:)``), `nil` when it does not exist; a file that cannot be
  /// read is noted.
  private mutating func read(_ file: String) -> String? {
    let path = path(of: file)
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    guard let data = FileManager.default.contents(atPath: path) else {
      lines.append(Line(file: file, number: 0, text: "", carried: false, outcome: "cannot be read"))
      return nil
    }
    return String(decoding: data, as: UTF8.self)
  }
}

extension SubscriptionService {
  /// The plan for importing the newsboat setup in `directory` (`cache.db` at `cachePath`).
  /// `~/` in an included file's name is `home`.
  public func newsboatPlan(_ directory: String, cachePath: String? = nil, home: String? = nil)
    -> NewsboatImport
  {
    NewsboatImport.plan(
      directory: directory, cachePath: cachePath, home: home, sources: sources,
      reserved: reserved,
      hasNewItemHook: configFile?.hooks.newItem != nil)
  }

  /// Writes `plan`'s sources, ignore rules and additions to `config.json`, in one edit;
  /// `sections` are those the file may hold (the reader's beside NewsCore's).
  public func apply(_ plan: NewsboatImport, sections: ConfigSections) throws {
    guard
      !plan.entries.isEmpty || !plan.ignoreRules.isEmpty || plan.newItemHook != nil
        || !plan.additions.isEmpty
    else { return }
    try edit(sections: sections) { editor throws(ConfigFileEditor.Failure) in
      try editor.append(contentsOf: plan.entries.map { $0.serialized() })
      for rule in plan.ignoreRules { try editor.append(rule.json.serialized(), to: "ignore") }
      if let hook = plan.newItemHook {
        _ = try editor.add("newItem", value: JSONValue.string(hook).serialized(), toObject: "hooks")
      }
      for addition in plan.additions {
        switch addition {
        case .member(let path, let key, let value):
          _ = try editor.add(key, value: value.serialized(), at: path)
        case .element(let list, let value):
          try editor.append(value.serialized(), to: list)
        }
      }
    }
  }
}
