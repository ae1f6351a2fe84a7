import Foundation

/// A parsed query of the one query language (`news search`, `feed --where`, bulk marks, saved
/// searches, ignore rules, browse's filter): words and phrases, fields, states, time, regular
/// expressions, `-`/`NOT`, `OR` and parentheses, AND by juxtaposition. Precedence NOT > AND > OR.
///
/// Parse it with ``init(_:timeZone:)``; decide with ``QueryMatcher``.
public struct ArticleQuery: Sendable, Equatable {
  /// The text it was read from.
  public let text: String
  /// What it asks.
  let root: Node

  /// Where a word or phrase is looked for.
  enum TextField: String, Sendable, CaseIterable {
    /// Title, description and content: a bare word, as `news search` has always looked.
    case any
    case title, author, text, url
    /// The categories the feed filed the item under (not its source's tags: `tag:`).
    case category
  }

  /// A state of an article (`is:` and `has:`).
  enum State: String, Sendable {
    case unread, read, bookmarked, enclosure, fulltext, download
  }

  /// One part of a query.
  indirect enum Node: Sendable, Equatable {
    /// A word or phrase (folded as search folds: any case, any accents) in a field.
    case text(TextField, [UInt8])
    /// A regular expression on a field (`any`: title and text; `/re/` is that, `title:/re/` the
    /// title alone), case-insensitive, `^` and `$` at each line (the pattern as written).
    case regex(TextField, String)
    case state(State)
    /// The article's provider or feed source, or the publisher its provider names.
    case source(String)
    /// One of its source's tags (folders, for an account's feeds).
    case tag(String)
    /// Its date (published, else first seen) at or after `from` and before `until`.
    case date(from: Date?, until: Date?)
    /// Its date within `seconds` of now (`newer`: `age<7d`), or further back (`age>12h`).
    case age(seconds: Double, newer: Bool)
    case not(Node)
    case and([Node])
    case or([Node])
  }

  /// A query of one node, with the text that says it (an ignore rule's words or expression).
  init(_ root: Node, text: String) {
    self.root = root
    self.text = text
  }

  /// Reads `text` (days in `date:` are those of `timeZone`).
  ///
  /// - Throws: ``ArticleQueryError``: what is wrong and at which column, with the nearest field for a
  ///   typo (`unknown field 'autor' (did you mean 'author'?)`).
  public init(_ text: String, timeZone: TimeZone) throws(ArticleQueryError) {
    self.text = text
    var parser = QueryParser(text, timeZone: timeZone)
    root = try parser.parse()
  }

  /// Checks that `text` reads as a query (what is wrong, and where), for a value checked when
  /// it is read and parsed for use later, in the run's time zone: whether a query reads does
  /// not depend on the zone.
  public static func check(_ text: String) throws(ArticleQueryError) {
    var parser = QueryParser(text, timeZone: .gmt)
    _ = try parser.parse()
  }

  /// What the query needs besides the article's own fields, so that only that is read.
  public struct Needs: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let readMarks = Needs(rawValue: 1)
    public static let bookmarks = Needs(rawValue: 2)
    public static let enclosures = Needs(rawValue: 4)
    public static let fullTexts = Needs(rawValue: 8)
    public static let downloads = Needs(rawValue: 16)
    public static let tags = Needs(rawValue: 32)
  }

  /// What ``QueryMatcher`` will ask its ``QueryFacts`` for.
  public var needs: Needs {
    var needs: Needs = []
    func visit(_ node: Node) {
      switch node {
      case .state(.read), .state(.unread): needs.insert(.readMarks)
      case .state(.bookmarked): needs.insert(.bookmarks)
      case .state(.enclosure): needs.insert(.enclosures)
      case .state(.fulltext): needs.insert(.fullTexts)
      case .state(.download): needs.insert(.downloads)
      case .tag: needs.insert(.tags)
      case .not(let inner): visit(inner)
      case .and(let nodes), .or(let nodes): nodes.forEach(visit)
      default: break
      }
    }
    visit(root)
    return needs
  }

  /// The index runs every match holds (``IndexRun``: a word's longest run, a regular
  /// expression's literal words), as alternatives: each match holds every run of at least one
  /// branch, so the index narrows to the records of each branch together. A query of words
  /// (a top-level AND) is one branch; an OR, alone or within that AND, one branch for each of
  /// its own (with the AND's runs): `(rust OR swift) -sponsored` reads the records holding
  /// `rust` and those holding `swift`. None when a branch holds no run the index knows (then
  /// it cannot narrow), or past ``maximumBranches``.
  var wordBranches: [[IndexRun]] {
    let branches = Self.branches(of: root)
    return branches.count <= Self.maximumBranches ? branches : []
  }

  /// The most branches the index is asked for: past them, reading every record costs less.
  static let maximumBranches = 32

  /// ``wordBranches`` of `node`.
  private static func branches(of node: Node) -> [[IndexRun]] {
    switch node {
    case .or(let nodes):
      var all: [[IndexRun]] = []
      for node in nodes {
        let some = branches(of: node)
        if some.isEmpty { return [] }
        all += some
      }
      return all
    case .and(let nodes):
      let required = nodes.flatMap(runs)
      // The first OR that narrows gives the branches; the AND's own runs go into each.
      for node in nodes {
        guard case .or = node else { continue }
        let some = branches(of: node)
        if !some.isEmpty { return some.map { required + $0 } }
      }
      return required.isEmpty ? [] : [required]
    default:
      let own = runs(of: node)
      return own.isEmpty ? [] : [own]
    }
  }

  /// The runs a match of the term `node` holds in its text, author or categories: a word's
  /// longest, a regular expression's literal words (``RegexRuns``); none for other terms.
  private static func runs(of node: Node) -> [IndexRun] {
    switch node {
    case .text(let field, let words):
      guard let field = indexField(field) else { return [] }
      return IndexRun(word: words, field: field).map { [$0] } ?? []
    case .regex(let field, let pattern):
      guard let field = indexField(field) else { return [] }
      return RegexRuns.required(in: pattern).map { run in
        var run = run
        run.field = field
        return run
      }
    default:
      return []
    }
  }

  /// The index's words a term of `field` is found in; `nil` for `url:`, which is not indexed.
  private static func indexField(_ field: TextField) -> IndexRun.Field? {
    switch field {
    case .any, .title, .text: .text
    case .author: .author
    case .category: .category
    case .url: nil
    }
  }

  /// The states every match is (or is not) in: the `is:` terms of a top-level AND, plain or
  /// negated (`-is:read`), or the query itself. Decided by an article's id alone, before it is
  /// read.
  var requiredStates: [(state: State, holds: Bool)] {
    func required(_ node: Node) -> (State, Bool)? {
      switch node {
      case .state(let state): return (state, true)
      case .not(.state(let state)): return (state, false)
      default: return nil
      }
    }
    if let one = required(root) { return [one] }
    guard case .and(let nodes) = root else { return [] }
    return nodes.compactMap(required)
  }

  /// Whether every match is unread (`is:unread` or `-is:read` among ``requiredStates``).
  var requiresUnread: Bool {
    requiredStates.contains {
      ($0.state == .unread && $0.holds) || ($0.state == .read && !$0.holds)
    }
  }

  /// The tags every match has: the `tag:` terms of a top-level AND (or the query itself).
  var requiredTags: Set<String> {
    switch root {
    case .tag(let tag): return [tag]
    case .and(let nodes):
      return Set(nodes.compactMap { if case .tag(let tag) = $0 { tag } else { nil } })
    default: return []
    }
  }

  /// The sources every match comes from, as alternatives: each set is one `source:` term of a
  /// top-level AND (or the query itself), or an OR of nothing but them; every match holds one
  /// name of each set. A segment whose summary holds no name of a set is passed over.
  var requiredSources: [Set<String>] {
    func names(_ node: Node) -> Set<String>? {
      switch node {
      case .source(let name): return [name]
      case .or(let nodes):
        var all = Set<String>()
        for node in nodes {
          guard let some = names(node) else { return nil }
          all.formUnion(some)
        }
        return all
      default: return nil
      }
    }
    if let one = names(root) { return [one] }
    guard case .and(let nodes) = root else { return [] }
    return nodes.compactMap(names)
  }

  /// The dates every match is dated in, at `now` (`date:` and `age` terms of a top-level AND,
  /// or the query itself); `nil` when none bounds them. An article is dated by its
  /// publication, or when it was seen when it has none.
  func dateRange(now: Date) -> DateRange? {
    func range(_ node: Node) -> DateRange? {
      switch node {
      case .date(let from, let until): return DateRange(from: from, until: until)
      // Newer than `seconds`: dated after now − seconds; older: before it.
      case .age(let seconds, true): return DateRange(from: now - seconds, until: nil)
      case .age(let seconds, false): return DateRange(from: nil, until: now - seconds)
      default: return nil
      }
    }
    let ranges: [DateRange]
    if let one = range(root) {
      ranges = [one]
    } else if case .and(let nodes) = root {
      ranges = nodes.compactMap(range)
    } else {
      ranges = []
    }
    guard !ranges.isEmpty else { return nil }
    return DateRange(
      from: ranges.compactMap(\.from).max(), until: ranges.compactMap(\.until).min())
  }

  /// The bare words of a query made of nothing else (what `news search` took before the
  /// language), for the fast path; `nil` when it holds anything more.
  var plainWords: [[UInt8]]? {
    func word(_ node: Node) -> [UInt8]? {
      if case .text(.any, let words) = node { return words }
      return nil
    }
    switch root {
    case .text(.any, let words): return [words]
    case .and(let nodes):
      let words = nodes.compactMap(word)
      return words.count == nodes.count ? words : nil
    default: return nil
    }
  }
}
