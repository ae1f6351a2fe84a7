import FeedParsing
import Foundation

/// `config.json` (in the config directory, or the file `NEWS_CONFIG` names): feed sources declared
/// without code, decoded once a run (``load(_:)``) beside the ``Configuration``, which only says
/// where the file is.
///
///     {"sources": [{"name": "d", "url": "https://example.com/d.json", "ttl": 600,
///       "mapping": {"items": "data.list", "title": "headline",
///                   "subtitle": ["kicker", "summary"], "imageUrl": "image.src"}}]}
///
/// A built-in source (`a`, `b`, `c`) may be listed with only `url` and/or `ttl` to change those.
public struct FeedConfigFile: Sendable {
  /// One entry of `sources`.
  public struct DeclaredSource: Sendable {
    /// Lower-case letters, digits and `-`.
    public var name: String
    /// Where to fetch it (required for a new source).
    public var url: URL?
    /// Its time to live.
    public var ttl: Duration?
    /// How to read it: a JSON mapping, or a web feed (RSS, Atom, JSON Feed) when it has none.
    var adapter: (any FeedAdapter)?
    /// Tags it is filed under.
    var tags: [String]?
    /// The feed's own title.
    var title: String?
    /// The site the feed is of.
    var site: URL?
    /// At most this many items kept and shown.
    var maxItems: Int?
    /// Whether it is fetched with the others.
    var enabled: Bool?
    /// Whether the plain feed and the home screen leave it out.
    var hidden: Bool?
    /// The words of a saved search (a source answered from the store).
    var search: String?
    /// Whether its articles' full text is extracted and shown.
    var fullText: Bool?
    /// Where its pages hold the article.
    var extract: ExtractionRules?
    /// Its command (`"exec"`, `"filter"`).
    var command: SourceCommand?

    func applied(to source: FeedSource) -> FeedSource {
      var source = source
      if let url { source.url = url }
      if let ttl {
        source.ttl = ttl
        source.ttlIsExplicit = true
      }
      if let adapter { source.adapter = adapter }
      if let tags { source.tags = tags }
      if let title { source.title = title }
      if let site { source.site = site }
      if let maxItems { source.maxItems = maxItems }
      if let enabled { source.enabled = enabled }
      if let hidden { source.hidden = hidden }
      if let fullText { source.fullText = fullText }
      if let extract { source.extract = extract }
      if let command { source.command = command }
      return source
    }

    /// The source it declares; only called for new sources, which were checked to have both.
    func source() -> FeedSource {
      if let search {
        var source = FeedSource(
          name: name, url: SavedSearchAdapter.url(search), ttl: .zero, adapter: SavedSearchAdapter()
        )
        source.search = search
        source.tags = tags ?? []
        source.title = title
        source.maxItems = maxItems
        source.enabled = enabled ?? true
        source.hidden = hidden ?? false
        return source
      }
      let address = command?.kind == .exec ? SourceCommand.url(command?.command ?? "") : url
      var source = FeedSource(
        name: name, url: address ?? URL(fileURLWithPath: "/"), ttl: ttl ?? .seconds(15 * 60),
        adapter: adapter ?? SyndicationAdapter())
      source.command = command
      source.tags = tags ?? []
      source.title = title
      source.site = site
      source.ttlIsExplicit = ttl != nil
      source.maxItems = maxItems
      source.enabled = enabled ?? true
      source.hidden = hidden ?? false
      source.fullText = fullText ?? false
      source.extract = extract ?? ExtractionRules()
      return source
    }
  }

  /// The file it was read from.
  public var path: String
  /// The sources, in the file's order.
  public var sources: [DeclaredSource]
  /// The killfile: `"ignore"`, in the file's order (``IgnoreRule``).
  public var ignore: [IgnoreRule] = []
  /// `"hooks": {"newItem": "<command>", "afterSync": "<command>"}`: commands `news sync` runs
  /// for each item new in the run, and once after it (``HookRunner``).
  public var hooks = Hooks()

  /// `"hookEnv": ["NAME", …]`: variables passed to hooks beside the ones every hook gets
  /// (``ChildEnvironment/forHooks(_:passing:)``).
  public var hookEnvironment: [String] = []

  /// The hook commands of `config.json`.
  public struct Hooks: Sendable, Equatable {
    /// Run once per item new in a sync, with the ITEM JSON on standard input.
    public var newItem: String?
    /// Run once after a sync, with the sync report JSON on standard input.
    public var afterSync: String?
  }

  /// The whole file as read: the executable reads its own sections from it (`"keys"`,
  /// `"theme"`, …), through the same reader and with the same messages.
  public var root: ConfigNode

  /// The sections it was read with (its own and the executable's).
  public var sections = ConfigSections.core

  /// The names of the saved searches it declares.
  public var savedSearches: [String] { sources.filter { $0.search != nil }.map(\.name) }

  /// The providers an entry of `sources` turns off (`{"name": "bbc", "enabled": false}`):
  /// neither synced nor on browse's home screen, and named so by `news sources`.
  public var disabledProviders: Set<String> = []

  /// Reads the file `configuration` points at, if there is one; a missing file named by
  /// `NEWS_CONFIG` is an error. `sections` are the top-level sections the program reads: any
  /// other is refused.
  public static func load(_ configuration: Configuration, sections: ConfigSections = .core)
    throws(ConfigurationError) -> FeedConfigFile?
  {
    try load(
      path: configuration.configFilePath, explicit: configuration.configFileIsExplicit,
      sections: sections)
  }

  /// Reads the file at `path`, if there is one; a missing file named by `NEWS_CONFIG` is an error.
  static func load(path: String, explicit: Bool, sections: ConfigSections)
    throws(ConfigurationError) -> FeedConfigFile?
  {
    var isDirectory: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
    if exists, isDirectory.boolValue {
      throw .unreadableFile(
        variable: explicit ? "NEWS_CONFIG" : "", path: path,
        reason:
          explicit
          ? "a directory, not a file (NEWS_CONFIG names the file itself, config.json)"
          : "a directory, not a file")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      if explicit || exists {
        throw .unreadableFile(
          variable: explicit ? "NEWS_CONFIG" : "", path: path,
          reason: exists ? "not readable" : "no such file")
      }
      return nil
    }
    return try parse(data, path: path, sections: sections)
  }

  /// Reads and checks the file's bytes; every mistake names the file, the source and the field.
  /// `sections` are the top-level sections the program reads (any other is refused).
  static func parse(_ data: Data, path: String, sections: ConfigSections = .core)
    throws(ConfigurationError) -> FeedConfigFile
  {
    let root = try ConfigNode.parse(data, file: path)
    try root.requireObject("is not a JSON object")
    try sections.check(root)
    var file = FeedConfigFile(path: path, sources: [], root: root, sections: sections)
    if let list = root["ignore"] {
      file.ignore = try list.list("must be a list of rules").map {
        node throws(ConfigurationError) in
        try rule(node)
      }
    }
    if let hooks = root["hooks"] { file.hooks = try Self.hooks(hooks) }
    if let names = root["hookEnv"] {
      let problem = "must be a list of variable names"
      file.hookEnvironment = try names.strings(problem)
      if !file.hookEnvironment.allSatisfy({ !$0.isEmpty && !$0.contains("=") }) {
        throw names.fail(problem)
      }
    }
    guard let list = root["sources"] else { return file }
    var providers: [String: Bool] = [:]
    // Names seen, in a set: ten thousand sources are not compared with each other.
    var names = Set<String>()
    for node in try list.list("must be a list of sources") {
      try node.requireObject("must be an object")
      if let name = node["name"]?.text, SourceName.providers.contains(name) {
        // A provider's entry holds whether it is enabled, and nothing else.
        let entry = node.asSource(named: name)
        try entry.refuseOthers(
          than: ["name", "enabled"], "does not apply to a provider (only \"enabled\" does)")
        guard providers[name] == nil else { throw entry.fail(at: "name", "is declared twice") }
        providers[name] = try entry["enabled"]?.bool() ?? true
        continue
      }
      let source = try Self.source(node)
      guard names.insert(source.name).inserted else {
        throw node.asSource(named: source.name).fail(at: "name", "is declared twice")
      }
      if !SourceName.builtInFeeds.contains(source.name), source.url == nil, source.search == nil,
        source.command?.kind != .exec
      {
        throw node.asSource(named: source.name).fail(at: "url", "is missing")
      }
      file.sources.append(source)
    }
    file.disabledProviders = Set(providers.filter { !$0.value }.keys)
    return file
  }

  /// `"hooks": {"newItem": "<command>", "afterSync": "<command>"}`.
  private static func hooks(_ node: ConfigNode) throws(ConfigurationError) -> Hooks {
    try node.requireObject("must be an object")
    try node.refuseOthers(than: ["newItem", "afterSync"], "is not a hook (newItem, afterSync)")
    func command(_ key: String) throws(ConfigurationError) -> String? {
      guard let member = node[key] else { return nil }
      let command = try member.string("must be a command")
      guard !command.trimmingCharacters(in: .whitespaces).isEmpty else {
        throw member.fail("must be a command")
      }
      return command
    }
    return Hooks(newItem: try command("newItem"), afterSync: try command("afterSync"))
  }

  /// `{"title": "sponsored"}`, `{"text": "a|b", "regex": true, "source": "hn"}`, `{"query": …}`.
  private static func rule(_ node: ConfigNode) throws(ConfigurationError) -> IgnoreRule {
    try node.requireObject("must be an object")
    let fields: [(String, IgnoreRule.Field)] = [
      ("title", .title), ("author", .author), ("link", .link), ("text", .text), ("query", .query),
    ]
    let present = fields.filter { node.has($0.0) }
    guard present.count == 1, let pattern = node[present[0].0]?.text else {
      throw node.fail(
        "must have one of title, author, link or text, holding the words to ignore, or "
          + "query, holding a query")
    }
    var rule = IgnoreRule(field: present[0].1, pattern: pattern)
    if let regex = node["regex"] { rule.isRegex = try regex.bool() }
    if let source = node["source"] { rule.source = try source.string("must be a source's name") }
    if let problem = rule.problem { throw node.fail(problem) }
    return rule
  }

  /// `"extract": {"keep": "<selector>", "drop": "<selector>"}` (``CSSSelector``).
  private static func extractionRules(_ node: ConfigNode) throws(ConfigurationError)
    -> ExtractionRules
  {
    try node.requireObject("must be an object with keep and/or drop")
    // A key it does not know (`"remove"`) would quietly change nothing: refused.
    try node.refuseOthers(than: ["keep", "drop"], "is not understood (keep and drop are)")
    var result = ExtractionRules()
    for key in ["keep", "drop"] {
      guard let member = node[key] else { continue }
      let text = try member.string("must be a selector")
      let selector: CSSSelector
      do {
        selector = try CSSSelector(text)
      } catch {
        throw member.fail(error.detail)
      }
      if key == "keep" { result.keep = selector } else { result.drop = selector }
    }
    return result
  }

  /// An entry of `sources` that is not a provider's.
  private static func source(_ entry: ConfigNode) throws(ConfigurationError) -> DeclaredSource {
    let nameProblem = "must be 1 to 64 lower-case letters, digits or '-'"
    guard let name = entry["name"]?.text else { throw entry.fail(at: "name", nameProblem) }
    guard SourceName.isValid(name) else { throw entry.fail(at: "name", nameProblem) }
    guard !SourceName.reserved.contains(name) else {
      throw entry.fail(
        at: "name",
        "'\(name)' is taken by a provider or a list (\(SourceName.reserved.sorted().joined(separator: ", ")))"
      )
    }
    let node = entry.asSource(named: name)
    var declared = DeclaredSource(name: name)
    if let member = node["url"] {
      let problem = "must be an http:// or https:// URL"
      guard let url = URL.web(try member.string(problem)) else { throw member.fail(problem) }
      declared.url = url
      // A name and a URL, and nothing else (what an import writes, most of a large file): no
      // other member is looked for (each look hashes its key: a tenth of `news sources` of
      // 10,000 sources). What follows only checks members that are there.
      if node.memberCount == 2 { return declared }
    }
    if let member = node["ttl"] {
      // Bounded, so that a huge number cannot overflow the conversion (found by fuzzing); a
      // boolean is not a number of seconds.
      let problem =
        #"must be a number of seconds from 0 to 31536000 (a year), or "30m", "2h", "1d""#
      let seconds = try member.seconds(in: 0...31_536_000, problem)
      declared.ttl = .milliseconds(Int(seconds * 1000))
    }
    if let member = node["tags"] { declared.tags = try member.strings("must be a list of strings") }
    if let member = node["title"] {
      // Shown to apps and written into OPML: made plain text once, here.
      declared.title =
        Optional(TerminalSanitizer.clean(try member.string("must be a string"))).nonEmpty
    }
    if let member = node["site"] {
      let problem = "must be an http:// or https:// URL"
      guard let site = URL.web(try member.string(problem)) else { throw member.fail(problem) }
      // A page to link to, shown and served: never with a user name or password.
      declared.site = site.withoutCredentials
    }
    if let member = node["search"] {
      let problem = "must be a query (docs/queries.md)"
      let words = try member.string(problem)
      guard !words.trimmingWhitespace().isEmpty else { throw member.fail(problem) }
      do {
        try ArticleQuery.check(words)
      } catch {
        throw member.fail(
          "holds a query that cannot be read: \(error.problem) at column \(error.column)")
      }
      guard !SourceName.builtInFeeds.contains(name) else {
        throw member.fail("does not apply to a built-in source")
      }
      for key in ["url", "format", "mapping"] where node.has(key) {
        throw node.fail(at: key, "does not apply to a saved search")
      }
      declared.search = words
    }
    for kind in [SourceCommand.Kind.exec, .filter] {
      guard let member = node[kind.rawValue] else { continue }
      let problem = "must be a command (run by /bin/sh -c)"
      let command = try member.string(problem)
      guard !command.trimmingWhitespace().isEmpty else { throw member.fail(problem) }
      guard !SourceName.builtInFeeds.contains(name), declared.search == nil,
        declared.command == nil
      else {
        throw member.fail("does not apply to a built-in source, a saved search or an exec source")
      }
      if kind == .exec, node.has("url") {
        throw node.fail(at: "url", "does not apply to an exec source (its command is its feed)")
      }
      if kind == .filter, !node.has("url") {
        throw node.fail(at: "url", "is missing (a filter source fetches it first)")
      }
      declared.command = SourceCommand(kind: kind, command: command)
    }
    if let member = node["maxItems"] {
      declared.maxItems = try member.integer(
        in: 1...1_000_000, "must be a whole number from 1 to 1000000")
    }
    if let member = node["enabled"] { declared.enabled = try member.bool() }
    if let member = node["hidden"] { declared.hidden = try member.bool() }
    if let member = node["fullText"] { declared.fullText = try member.bool() }
    if let member = node["extract"] { declared.extract = try extractionRules(member) }
    var format: String?
    if let member = node["format"] {
      let formats = SyndicationAdapter.formats + ["json"]
      let problem = "must be one of \(formats.joined(separator: ", ")) (or left out: detected)"
      guard let value = member.text, formats.contains(value) else { throw member.fail(problem) }
      format = value
    }
    if format == "json", !node.has("mapping") {
      throw node.fail(at: "mapping", "is missing (format json needs one)")
    }
    if let format, format != "json", node.has("mapping") {
      throw node.fail(at: "mapping", "does not apply to format \(format)")
    }
    if let format, format != "json" { declared.adapter = SyndicationAdapter(declared: format) }
    if let mapping = node["mapping"] {
      try mapping.requireObject("must be an object")
      let problem = "must be the JSON path of the list of items"
      guard let items = mapping["items"] else { throw mapping.fail(at: "items", problem) }
      declared.adapter = JSONPathAdapter(
        items: try items.string(problem), title: try paths(mapping, "title", required: true),
        subtitle: try paths(mapping, "subtitle", required: false),
        imageURL: try paths(mapping, "imageUrl", required: false))
    }
    if let member = node["html"] {
      for key in ["format", "mapping"] where node.has(key) {
        throw node.fail(at: key, "does not apply to a page read by selectors (\"html\")")
      }
      if declared.search != nil || declared.command?.kind == .exec {
        throw member.fail("does not apply to a saved search or an exec source")
      }
      guard !SourceName.builtInFeeds.contains(name) else {
        throw member.fail("does not apply to a built-in source")
      }
      if !node.has("url") { throw node.fail(at: "url", "is missing (the page to read)") }
      declared.adapter = PageAdapter(selectors: try pageSelectors(member))
    }
    return declared
  }

  /// `"html": {"items": "<selector>", "title", "link", "date", "content", "dateFormat"}`.
  private static func pageSelectors(_ node: ConfigNode) throws(ConfigurationError)
    -> PageSelectors
  {
    try node.requireObject("must be an object of selectors (items, title, link, date, content)")
    let fields = ["items", "title", "link", "date", "content"]
    try node.refuseOthers(
      than: fields + ["dateFormat"],
      "is not understood (\(fields.joined(separator: ", ")) and dateFormat are)")
    var read: [String: PageSelectors.Field] = [:]
    for key in fields {
      guard let member = node[key] else { continue }
      let text = try member.string("must be a selector (an element's text, or selector@attribute)")
      do {
        read[key] = try PageSelectors.Field(text)
      } catch {
        throw member.fail(error.detail)
      }
    }
    guard let items = read["items"] else {
      throw node.fail(at: "items", "is missing: the selector of each item (\"article\")")
    }
    var dateFormat: String?
    if let member = node["dateFormat"] {
      let problem = "must be a date pattern (dd.MM.yyyy HH:mm)"
      let text = try member.string(problem)
      guard !text.trimmingWhitespace().isEmpty else { throw member.fail(problem) }
      dateFormat = text
    }
    return PageSelectors(
      items: items, title: read["title"], link: read["link"], date: read["date"],
      content: read["content"], dateFormat: dateFormat)
  }

  /// A JSON path, or a non-empty list of them.
  private static func paths(_ mapping: ConfigNode, _ key: String, required: Bool)
    throws(ConfigurationError) -> [String]
  {
    let problem = "must be a JSON path or a list of them"
    guard let member = mapping[key] else {
      if required { throw mapping.fail(at: key, problem) }
      return []
    }
    if let path = member.text { return [path] }
    let paths = try member.strings(problem)
    guard !paths.isEmpty else { throw member.fail(problem) }
    return paths
  }
}
