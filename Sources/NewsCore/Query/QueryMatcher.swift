import FeedParsing
import Foundation

/// What a query may ask of an article beyond its own fields: its read state, bookmark, kept
/// full text, enclosures, downloads and its source's tags; read once a run, only what the query
/// needs (``ArticleQuery/needs``).
public struct QueryFacts: Sendable {
  /// Now, for `age<7d`.
  public var now: Date
  public var readMarks = ReadMarks()
  /// The read marks read as they are asked (a narrowed search), in place of ``readMarks``.
  public var readMarkShards: ReadMarkShards?
  /// The ids read, when known as a set (browse's list) rather than as ``readMarks``.
  public var readIDs: Set<String>?
  public var bookmarked: Set<String> = []
  public var withEnclosures: Set<String> = []
  public var withFullText: Set<String> = []
  public var downloaded: Set<String> = []
  /// Each source's tags, by source name, lower-case.
  public var tags: [String: Set<String>] = [:]

  /// Facts as of `now`, the rest empty.
  public init(now: Date) { self.now = now }
}

/// Decides whether an article matches an ``ArticleQuery``: each field folded once an article,
/// regular expressions within the run's ``PatternBudget`` (shared by every matcher built for
/// the same run, so building one again neither compiles them again nor forgets which stopped).
public struct QueryMatcher {
  public let query: ArticleQuery
  let facts: QueryFacts
  /// The time the query's regular expressions may take, with their compiled forms.
  public let budget: PatternBudget
  private var cache: [Unicode.Scalar: [UInt8]] = [:]

  // The article being decided, folded field by field when first asked.
  private var article: Article?
  private var seenAt: Date?
  private var folded: [ArticleQuery.TextField: [UInt8]] = [:]

  /// Any case; `^` and `$` at each field's start and end (title, description and content are
  /// lines of one text).
  static let regexOptions: NSRegularExpression.Options = [.caseInsensitive, .anchorsMatchLines]

  /// A matcher of `query` with `facts`, its expressions within `budget` (a run of their own
  /// unless given).
  public init(_ query: ArticleQuery, facts: QueryFacts, budget: PatternBudget = PatternBudget()) {
    self.query = query
    self.facts = facts
    self.budget = budget
  }

  /// The regular expressions stopped for taking too long.
  public var slowPatterns: [String] { budget.stoppedPatterns }

  /// The warnings a run of it leaves: patterns stopped for taking too long.
  public var warnings: [String] { budget.warnings { "the query's /\($0)/" } }

  /// Whether `article` (first seen at `seenAt`, when known) matches.
  public mutating func matches(_ article: Article, seenAt: Date? = nil) -> Bool {
    self.article = article
    self.seenAt = seenAt
    folded.removeAll(keepingCapacity: true)
    return evaluate(query.root)
  }

  /// An article's fields as matchers fold them, shared by the matchers of one article (browse's
  /// highlight rules: ten thousand of them fold a row's title once, not ten thousand times).
  public struct FoldedFields {
    var fields: [ArticleQuery.TextField: [UInt8]] = [:]

    /// None folded yet: one for each article.
    public init() {}
  }

  /// Whether `article` matches, its folded fields taken from `shared` and what this matcher
  /// folds left there for the next matcher of the same article.
  public mutating func matches(_ article: Article, sharing shared: inout FoldedFields) -> Bool {
    self.article = article
    seenAt = nil
    swap(&folded, &shared.fields)
    defer { swap(&folded, &shared.fields) }
    return evaluate(query.root)
  }

  private mutating func evaluate(_ node: ArticleQuery.Node) -> Bool {
    guard let article else { return false }
    switch node {
    case .text(let field, let needle):
      return ArticleSearch.contains(text(field), needle)
    case .regex(let field, let pattern):
      return budget.matches(
        pattern, options: Self.regexOptions,
        in: Self.parts(field, of: article).compactMap { $0 }.joined(separator: "\n"))
    case .state(let state):
      return holds(state, article.id)
    case .source(let name):
      if article.provider.lowercased() == name { return true }
      guard let publisher = article.publisher else { return false }
      return ArticleSearch.contains(ArticleSearch.fold(publisher, cache: &cache), Array(name.utf8))
    case .tag(let tag):
      return facts.tags[article.provider]?.contains(tag) == true
    case .date(let from, let until):
      guard let date = article.publishedAt ?? seenAt else { return false }
      return DateRange(from: from, until: until).contains(date)
    case .age(let seconds, let newer):
      guard let date = article.publishedAt ?? seenAt else { return false }
      let age = facts.now.timeIntervalSince(date)
      return newer ? age < seconds : age > seconds
    case .not(let inner):
      return !evaluate(inner)
    case .and(let nodes):
      for inner in nodes where !evaluate(inner) { return false }
      return true
    case .or(let nodes):
      for inner in nodes where evaluate(inner) { return true }
      return false
    }
  }

  /// Whether article `id` is in `state`.
  private func holds(_ state: ArticleQuery.State, _ id: String) -> Bool {
    switch state {
    case .read: isRead(id)
    case .unread: !isRead(id)
    case .bookmarked: facts.bookmarked.contains(id)
    case .enclosure: facts.withEnclosures.contains(id)
    case .fulltext: facts.withFullText.contains(id)
    case .download: facts.downloaded.contains(id)
    }
  }

  /// The only ids a match can have, when a state every match is in names them: bookmarked,
  /// with an enclosure, a kept full text or a download (the ids in all of those required);
  /// `nil` when no such state is required.
  var namedIDs: Set<String>? {
    var named: Set<String>?
    for (state, holds) in query.requiredStates where holds {
      let ids: Set<String>
      switch state {
      case .bookmarked: ids = facts.bookmarked
      case .enclosure: ids = facts.withEnclosures
      case .fulltext: ids = facts.withFullText
      case .download: ids = facts.downloaded
      case .read, .unread: continue
      }
      named = named.map { $0.intersection(ids) } ?? ids
    }
    return named
  }

  /// Whether article `id` is in every state the query requires (``ArticleQuery/requiredStates``):
  /// one that is not cannot match, whatever its text.
  func admits(id: String) -> Bool {
    query.requiredStates.allSatisfy { holds($0.state, id) == $0.holds }
  }

  private func isRead(_ id: String) -> Bool {
    facts.readIDs?.contains(id) ?? facts.readMarkShards?.contains(id)
      ?? facts.readMarks.contains(id)
  }

  /// The article's `field`, folded (once an article).
  private mutating func text(_ field: ArticleQuery.TextField) -> [UInt8] {
    if let done = folded[field] { return done }
    guard let article else { return [] }
    var bytes: [UInt8] = []
    for part in Self.parts(field, of: article) {
      guard let part else { continue }
      ArticleSearch.fold(part, into: &bytes, cache: &cache)
      bytes.append(0x0A)
    }
    folded[field] = bytes
    return bytes
  }

  /// The fields of `article` that `field` looks in, in order.
  static func parts(_ field: ArticleQuery.TextField, of article: Article) -> [String?] {
    switch field {
    case .any: [article.title, article.description, article.content]
    case .title: [article.title]
    case .text: [article.description, article.content]
    case .author: [article.author]
    case .url: [article.url]
    case .category: article.categories
    }
  }
}
