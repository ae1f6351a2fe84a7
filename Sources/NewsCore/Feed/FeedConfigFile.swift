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
    /// At most this many items kept and shown.
    var maxItems: Int?
    /// Whether it is fetched with the others.
    var enabled: Bool?
    /// The words of a saved search (a source answered from the store).
    var search: String?
    /// Whether its articles' full text is extracted and shown.
    var fullText: Bool?
    /// Where its pages hold the article.
    var extract: ExtractionRules?

    func applied(to source: FeedSource) -> FeedSource {
      var source = source
      if let url { source.url = url }
      if let ttl {
        source.ttl = ttl
        source.ttlIsExplicit = true
      }
      if let adapter { source.adapter = adapter }
      if let tags { source.tags = tags }
      if let maxItems { source.maxItems = maxItems }
      if let enabled { source.enabled = enabled }
      if let fullText { source.fullText = fullText }
      if let extract { source.extract = extract }
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
        source.maxItems = maxItems
        source.enabled = enabled ?? true
        return source
      }
      var source = FeedSource(
        name: name, url: url ?? URL(fileURLWithPath: "/"), ttl: ttl ?? .seconds(15 * 60),
        adapter: adapter ?? SyndicationAdapter())
      source.tags = tags ?? []
      source.ttlIsExplicit = ttl != nil
      source.maxItems = maxItems
      source.enabled = enabled ?? true
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

  /// The file's bytes (JSON): the executable reads its own sections from them (`"keys"`,
  /// `"theme"`, …).
  public var json = Data()

  /// The top-level sections the file may hold: its own, then those the executable reads
  /// (``json``).
  public static let sections = [
    "sources", "ignore", "hooks", "hookEnv", "keys", "commands", "theme", "colors", "highlight",
  ]

  /// The names of the saved searches it declares.
  public var savedSearches: [String] { sources.filter { $0.search != nil }.map(\.name) }

  /// The providers an entry of `sources` turns off (`{"name": "bbc", "enabled": false}`):
  /// neither synced nor on browse's home screen, and named so by `news sources`.
  public var disabledProviders: Set<String> = []

  /// Reads the file `configuration` points at, if there is one; a missing file named by
  /// `NEWS_CONFIG` is an error.
  public static func load(_ configuration: Configuration) throws(ConfigurationError)
    -> FeedConfigFile?
  {
    try load(path: configuration.configFilePath, explicit: configuration.configFileIsExplicit)
  }

  /// Reads the file at `path`, if there is one; a missing file named by `NEWS_CONFIG` is an error.
  static func load(path: String, explicit: Bool) throws(ConfigurationError) -> FeedConfigFile? {
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
    return try parse(data, path: path)
  }

  /// Decodes and checks the file's bytes; every mistake names the file, the source and the field.
  static func parse(_ data: Data, path: String) throws(ConfigurationError) -> FeedConfigFile {
    let wire: Wire
    do {
      // A byte-order mark (Windows editors write one) is not JSON.
      let json = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data
      wire = try JSONDecoder().decode(Wire.self, from: Data(json))
      // The sections read as objects (keys, theme, commands…) are read by JSONSerialization,
      // which refuses what the decoder lets through (a lone surrogate, `"\ud800"`): a file one
      // reader cannot read is refused by both, never half read.
      do {
        _ = try JSONSerialization.jsonObject(with: Data(json))
      } catch {
        throw ConfigurationError.invalidConfigFile(
          file: path, source: nil, field: "(top level)",
          problem: "is not valid JSON ("
            + ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
              ?? "a string in it is not text") + ")")
      }
    } catch let problem as ConfigurationError {
      throw problem
    } catch let problem as Problem {
      throw .invalidConfigFile(
        file: path, source: problem.source, field: problem.field, problem: problem.problem)
    } catch {
      throw .invalidConfigFile(
        file: path, source: nil, field: "(top level)",
        problem: "is not valid JSON" + (Self.syntaxErrorPosition(data).map { " (\($0))" } ?? ""))
    }
    var seen = Set<String>()
    for source in wire.sources {
      guard seen.insert(source.name).inserted else {
        throw .invalidConfigFile(
          file: path, source: source.name, field: "name", problem: "is declared twice")
      }
      guard !SourceName.builtInFeeds.contains(source.name) else { continue }
      if source.url == nil, source.search == nil {
        throw .invalidConfigFile(
          file: path, source: source.name, field: "url", problem: "is missing")
      }

    }
    var file = FeedConfigFile(path: path, sources: wire.sources, ignore: wire.ignore)
    file.json = data.starts(with: [0xEF, 0xBB, 0xBF]) ? Data(data.dropFirst(3)) : data
    file.hooks = wire.hooks
    file.hookEnvironment = wire.hookEnvironment
    file.disabledProviders = Set(wire.providers.filter { !$0.value }.keys)
    return file
  }

  /// Where the JSON parser stopped in `data`, as `line 2, column 16` (from the character
  /// offset its error names), or `nil` when it does not say.
  static func syntaxErrorPosition(_ data: Data) -> String? {
    do {
      _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
      return nil
    } catch {
      let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
      guard let range = text.range(of: "character "),
        let offset = Int(text[range.upperBound...].prefix { $0.isNumber })
      else { return nil }
      let before = data.prefix(offset)
      let line = before.filter { $0 == 0x0A }.count + 1
      let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? before.startIndex
      let column = String(decoding: data[lineStart..<before.endIndex], as: UTF8.self).count + 1
      return "line \(line), column \(column)"
    }
  }

  /// A mistake found while decoding, with where it is.
  private struct Problem: Error {
    var source: String?
    var field: String
    var problem: String
  }

  private enum Keys: String, CodingKey {
    case sources, name, url, ttl, format, mapping, items, title, subtitle, imageUrl, tags
    case maxItems, enabled, ignore, author, link, text, regex, source, search
    case hooks, newItem, afterSync, fullText, extract, keep, drop, hookEnv, query
  }

  /// Any key of an object, by its name (to refuse the ones that are not understood).
  private struct NamedKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// The file as decoded: `{"sources": [...]}`.
  private struct Wire: Decodable {
    var sources: [DeclaredSource]
    var ignore: [IgnoreRule] = []
    /// A provider's entry: whether it is enabled.
    var providers: [String: Bool] = [:]
    var hooks = Hooks()
    var hookEnvironment: [String] = []

    init(from decoder: any Decoder) throws {
      guard let root = try? decoder.container(keyedBy: Keys.self) else {
        throw Problem(source: nil, field: "(top level)", problem: "is not a JSON object")
      }
      if root.contains(.ignore) { ignore = try Self.rules(root) }
      if root.contains(.hooks) {
        guard let object = try? root.nestedContainer(keyedBy: Keys.self, forKey: .hooks) else {
          throw Problem(source: nil, field: "hooks", problem: "must be an object")
        }
        for key in object.allKeys where key != .newItem && key != .afterSync {
          throw Problem(
            source: nil, field: "hooks." + key.stringValue,
            problem: "is not a hook (newItem, afterSync)")
        }
        for key in [Keys.newItem, .afterSync] where object.contains(key) {
          guard let command = try? object.decode(String.self, forKey: key),
            !command.trimmingCharacters(in: .whitespaces).isEmpty
          else {
            throw Problem(
              source: nil, field: "hooks." + key.stringValue, problem: "must be a command")
          }
          if key == .newItem { hooks.newItem = command } else { hooks.afterSync = command }
        }
      }
      if root.contains(.hookEnv) {
        guard let names = try? root.decode([String].self, forKey: .hookEnv),
          names.allSatisfy({ !$0.isEmpty && !$0.contains("=") })
        else {
          throw Problem(
            source: nil, field: "hookEnv", problem: "must be a list of variable names")
        }
        hookEnvironment = names
      }
      // Sections of the user's own are kept as written (and not read).
      let named = (try? decoder.container(keyedBy: NamedKey.self).allKeys) ?? []
      // Without sources, a file of other sections (ignore, hooks, keys, colours…) is whole.
      let anyKey = named.contains { FeedConfigFile.sections.contains($0.stringValue) }
      guard root.contains(.sources) || !anyKey else {
        sources = []
        return
      }
      guard var list = try? root.nestedUnkeyedContainer(forKey: .sources) else {
        throw Problem(source: nil, field: "sources", problem: "must be a list of sources")
      }
      var sources: [DeclaredSource] = []
      while !list.isAtEnd {
        let index = list.currentIndex
        guard let object = try? list.nestedContainer(keyedBy: Keys.self) else {
          throw Problem(source: nil, field: "sources[\(index)]", problem: "must be an object")
        }
        if let name = try? object.decode(String.self, forKey: .name),
          SourceName.providers.contains(name)
        {
          // A provider's entry holds whether it is enabled, and nothing else.
          for key in object.allKeys where key != .name && key != .enabled {
            throw Problem(
              source: name, field: key.stringValue,
              problem: "does not apply to a provider (only \"enabled\" does)")
          }
          let enabled =
            object.contains(.enabled) ? try? object.decode(Bool.self, forKey: .enabled) : true
          guard let enabled else {
            throw Problem(source: name, field: "enabled", problem: "must be true or false")
          }
          if providers[name] != nil {
            throw Problem(source: name, field: "name", problem: "is declared twice")
          }
          providers[name] = enabled
          continue
        }
        sources.append(try Self.source(object, index: index))
      }
      self.sources = sources
    }

    /// `"ignore": [{"title": "sponsored"}, {"text": "a|b", "regex": true, "source": "hn"}]`.
    private static func rules(_ root: KeyedDecodingContainer<Keys>) throws -> [IgnoreRule] {
      guard var list = try? root.nestedUnkeyedContainer(forKey: .ignore) else {
        throw Problem(source: nil, field: "ignore", problem: "must be a list of rules")
      }
      var rules: [IgnoreRule] = []
      while !list.isAtEnd {
        let field = "ignore[\(list.currentIndex)]"
        guard let object = try? list.nestedContainer(keyedBy: Keys.self) else {
          throw Problem(source: nil, field: field, problem: "must be an object")
        }
        let keys: [(Keys, IgnoreRule.Field)] = [
          (.title, .title), (.author, .author), (.link, .link), (.text, .text), (.query, .query),
        ]
        let present = keys.filter { object.contains($0.0) }
        guard present.count == 1,
          let pattern = try? object.decode(String.self, forKey: present[0].0)
        else {
          throw Problem(
            source: nil, field: field,
            problem:
              "must have one of title, author, link or text, holding the words to ignore, or "
              + "query, holding a query")
        }
        var rule = IgnoreRule(field: present[0].1, pattern: pattern)
        if object.contains(.regex) {
          guard let regex = try? object.decode(Bool.self, forKey: .regex) else {
            throw Problem(source: nil, field: field + ".regex", problem: "must be true or false")
          }
          rule.isRegex = regex
        }
        if object.contains(.source) {
          guard let source = try? object.decode(String.self, forKey: .source) else {
            throw Problem(source: nil, field: field + ".source", problem: "must be a source's name")
          }
          rule.source = source
        }
        if let problem = rule.problem { throw Problem(source: nil, field: field, problem: problem) }
        rules.append(rule)
      }
      return rules
    }

    /// `"extract": {"keep": "<selector>", "drop": "<selector>"}` (``CSSSelector``).
    private static func extractionRules(_ object: KeyedDecodingContainer<Keys>, source: String)
      throws -> ExtractionRules
    {
      guard let rules = try? object.nestedContainer(keyedBy: Keys.self, forKey: .extract) else {
        throw Problem(
          source: source, field: "extract", problem: "must be an object with keep and/or drop")
      }
      // A key it does not know (`"remove"`) would quietly change nothing: refused.
      if let any = try? object.nestedContainer(keyedBy: NamedKey.self, forKey: .extract) {
        for key in any.allKeys where key.stringValue != "keep" && key.stringValue != "drop" {
          throw Problem(
            source: source, field: "extract.\(key.stringValue)",
            problem: "is not understood (keep and drop are)")
        }
      }
      var result = ExtractionRules()
      for key in [Keys.keep, .drop] where rules.contains(key) {
        guard let text = try? rules.decode(String.self, forKey: key) else {
          throw Problem(
            source: source, field: "extract.\(key.stringValue)", problem: "must be a selector")
        }
        let selector: CSSSelector
        do {
          selector = try CSSSelector(text)
        } catch {
          throw Problem(source: source, field: "extract.\(key.stringValue)", problem: error.detail)
        }
        if key == .keep { result.keep = selector } else { result.drop = selector }
      }
      return result
    }

    private static func source(_ object: KeyedDecodingContainer<Keys>, index: Int) throws
      -> DeclaredSource
    {
      guard let name = try? object.decode(String.self, forKey: .name),
        SourceName.isValid(name)
      else {
        throw Problem(
          source: nil, field: "sources[\(index)].name",
          problem: "must be 1 to 64 lower-case letters, digits or '-'")
      }
      guard !SourceName.reserved.contains(name) else {
        throw Problem(
          source: nil, field: "sources[\(index)].name",
          problem:
            "'\(name)' is taken by a provider or a list (\(SourceName.reserved.sorted().joined(separator: ", ")))"
        )
      }
      var declared = DeclaredSource(name: name)
      if object.contains(.url) {
        guard let text = try? object.decode(String.self, forKey: .url), let url = URL.web(text)
        else {
          throw Problem(source: name, field: "url", problem: "must be an http:// or https:// URL")
        }
        declared.url = url
      }
      if object.contains(.ttl) {
        // Bounded, so that a huge number cannot overflow the conversion (found by fuzzing); a
        // boolean is not a number of seconds.
        guard let seconds = try? object.decode(Double.self, forKey: .ttl),
          (0...31_536_000).contains(seconds)
        else {
          throw Problem(
            source: name, field: "ttl",
            problem: "must be a number of seconds from 0 to 31536000 (a year)")
        }
        declared.ttl = .milliseconds(Int(seconds * 1000))
      }
      if object.contains(.tags) {
        guard let tags = try? object.decode([String].self, forKey: .tags) else {
          throw Problem(source: name, field: "tags", problem: "must be a list of strings")
        }
        declared.tags = tags
      }
      if object.contains(.search) {
        guard let words = try? object.decode(String.self, forKey: .search),
          !words.trimmingWhitespace().isEmpty
        else {
          throw Problem(source: name, field: "search", problem: "must be a query (docs/queries.md)")
        }
        do {
          try ArticleQuery.check(words)
        } catch {
          throw Problem(
            source: name, field: "search",
            problem: "holds a query that cannot be read: \(error.problem) at column \(error.column)"
          )
        }
        guard !SourceName.builtInFeeds.contains(name) else {
          throw Problem(
            source: name, field: "search", problem: "does not apply to a built-in source")
        }
        for key in [Keys.url, .format, .mapping] where object.contains(key) {
          throw Problem(
            source: name, field: key.stringValue, problem: "does not apply to a saved search")
        }
        declared.search = words
      }
      if object.contains(.maxItems) {
        guard let count = try? object.decode(Int.self, forKey: .maxItems), count >= 1,
          count <= 1_000_000
        else {
          throw Problem(
            source: name, field: "maxItems", problem: "must be a whole number from 1 to 1000000")
        }
        declared.maxItems = count
      }
      if object.contains(.enabled) {
        guard let enabled = try? object.decode(Bool.self, forKey: .enabled) else {
          throw Problem(source: name, field: "enabled", problem: "must be true or false")
        }
        declared.enabled = enabled
      }
      if object.contains(.fullText) {
        guard let fullText = try? object.decode(Bool.self, forKey: .fullText) else {
          throw Problem(source: name, field: "fullText", problem: "must be true or false")
        }
        declared.fullText = fullText
      }
      if object.contains(.extract) {
        declared.extract = try extractionRules(object, source: name)
      }
      var format: String?
      if object.contains(.format) {
        let formats = SyndicationAdapter.formats + ["json"]
        guard let value = try? object.decode(String.self, forKey: .format), formats.contains(value)
        else {
          throw Problem(
            source: name, field: "format",
            problem: "must be one of \(formats.joined(separator: ", ")) (or left out: detected)")
        }
        format = value
      }
      if format == "json", !object.contains(.mapping) {
        throw Problem(source: name, field: "mapping", problem: "is missing (format json needs one)")
      }
      if let format, format != "json", object.contains(.mapping) {
        throw Problem(source: name, field: "mapping", problem: "does not apply to format \(format)")
      }
      if let format, format != "json" { declared.adapter = SyndicationAdapter(declared: format) }
      if object.contains(.mapping) {
        guard let mapping = try? object.nestedContainer(keyedBy: Keys.self, forKey: .mapping) else {
          throw Problem(source: name, field: "mapping", problem: "must be an object")
        }
        guard let items = try? mapping.decode(String.self, forKey: .items) else {
          throw Problem(
            source: name, field: "mapping.items",
            problem: "must be the JSON path of the list of items")
        }
        declared.adapter = JSONPathAdapter(
          items: items, title: try paths(mapping, .title, source: name, required: true),
          subtitle: try paths(mapping, .subtitle, source: name, required: false),
          imageURL: try paths(mapping, .imageUrl, source: name, required: false))
      }
      return declared
    }

    /// A JSON path, or a non-empty list of them.
    private static func paths(
      _ mapping: KeyedDecodingContainer<Keys>, _ key: Keys, source: String, required: Bool
    ) throws -> [String] {
      if !mapping.contains(key), !required { return [] }
      if let path = try? mapping.decode(String.self, forKey: key) { return [path] }
      if let paths = try? mapping.decode([String].self, forKey: key), !paths.isEmpty {
        return paths
      }
      throw Problem(
        source: source, field: "mapping.\(key.stringValue)",
        problem: "must be a JSON path or a list of them")
    }
  }
}
