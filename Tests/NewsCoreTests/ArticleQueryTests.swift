import Foundation
import Synchronization
import Testing

@testable import NewsCore

/// The query language (#43): every field and operator, precedence, phrases, negation, dates,
/// regular expressions and their bound, and the errors with their columns.
@Suite("The query language")
struct ArticleQueryTests {
  static func day(_ text: String) -> Date {
    ISO8601DateFormatter().date(from: text)!
  }

  /// Four articles, and what is known of them.
  static let articles: [(Article, Date?)] = [
    (
      Article(
        id: "a1", provider: "hn", title: "Swift 6 released", description: "Concurrency by default",
        author: "Ann Lee", url: "https://swift.org/blog/6",
        publishedAt: day("2026-11-20T10:00:00Z")), nil
    ),
    (
      Article(
        id: "a2", provider: "lwn", title: "Rust in the kernel", author: "Bo Chen",
        url: "https://lwn.net/a", publishedAt: day("2026-11-01T23:30:00Z"),
        content: "Rust and Swift compared"), nil
    ),
    (
      Article(
        id: "a3", provider: "newsapi", title: "Climate talks",
        description: "Sponsored content on climate", publisher: "BBC News"),
      day("2026-11-25T08:00:00Z")
    ),
    (
      Article(
        id: "a4", provider: "hn", title: "Café culture",
        publishedAt: day("2026-10-15T12:00:00Z")), nil
    ),
  ]

  static var facts: QueryFacts {
    var facts = QueryFacts(now: day("2026-11-27T00:00:00Z"))
    _ = facts.readMarks.mark(["a1"], stamp: 1_700_000_000)
    facts.bookmarked = ["a2"]
    facts.withEnclosures = ["a3"]
    facts.withFullText = ["a4"]
    facts.downloaded = ["a3"]
    facts.tags = ["hn": ["tech"], "lwn": ["tech", "linux"]]
    return facts
  }

  /// The ids of the articles `text` matches.
  static func matches(_ text: String) throws -> [String] {
    var matcher = QueryMatcher(try ArticleQuery(text, timeZone: .gmt), facts: facts)
    return articles.filter { matcher.matches($0.0, seenAt: $0.1) }.map(\.0.id)
  }

  @Test(
    "what each form selects",
    arguments: [
      // Bare words and phrases: title and text, any case, any accents, as search always did.
      ("swift", "a1 a2"), ("SWIFT released", "a1"), ("cafe", "a4"), ("\"swift 6\"", "a1"),
      ("\"6 swift\"", ""),
      // Fields.
      ("title:swift", "a1"), ("text:swift", "a2"), ("author:\"Ann Lee\"", "a1"),
      ("author:lee", "a1"), ("url:lwn.net", "a2"), ("title:\"rust in\"", "a2"),
      ("source:hn", "a1 a4"), ("source:bbc", "a3"), ("tag:linux", "a2"), ("tag:tech", "a1 a2 a4"),
      // States.
      ("is:unread", "a2 a3 a4"), ("is:read", "a1"), ("is:bookmarked", "a2"),
      ("has:enclosure", "a3"), ("has:fulltext", "a4"), ("has:download", "a3"),
      // Time: the publication date, else when first seen.
      ("age<7d", "a1 a3"), ("age>12h", "a1 a2 a3 a4"), ("age<2w", "a1 a3"), ("age>30d", "a4"),
      ("date:2026-11-01", "a2"), ("date:2026-11-01..2026-11-20", "a1 a2"),
      ("date>=2026-11-20", "a1 a3"), ("date<2026-11-01", "a4"), ("date:..2026-10-31", "a4"),
      ("date>2026-11-20", "a3"), ("date<=2026-11-01", "a2 a4"),
      // Regular expressions, on title and text, any case.
      ("/sw.ft/", "a1 a2"), ("/^café/", "a4"), ("/kernel$/", "a2"),
      // …and on one field: the title alone, the author, the link, the text (not the title).
      ("title:/^rust in/", "a2"), ("title:/swift/", "a1"), ("text:/^rust and/", "a2"),
      ("author:/lee$/", "a1"), ("url:/lwn\\.net/", "a2"), ("-title:/swift|rust/", "a3 a4"),
      ("(title:/ (in|culture)$/ OR author:/^bo/)", "a2 a4"),
      // Negation, OR, parentheses, precedence NOT > AND > OR.
      ("swift -rust", "a1"), ("swift NOT rust", "a1"), ("rust OR climate", "a2 a3"),
      ("swift rust OR climate", "a2 a3"), ("swift (rust OR climate)", "a2"),
      ("NOT swift climate", "a3"), ("-(swift OR rust)", "a3 a4"), ("swift AND rust", "a2"),
      ("climate OR rust swift", "a2 a3"), ("is:unread -source:newsapi", "a2 a4"),
      ("(tag:tech OR has:enclosure) age<30d", "a1 a2 a3"),
      // A dash inside a word is part of it.
      ("covid-19", ""),
    ])
  func selects(query: String, ids: String) throws {
    #expect(try Self.matches(query) == ids.split(separator: " ").map(String.init), "\(query)")
  }

  @Test(
    "what it refuses, saying what and where",
    arguments: [
      ("autor:ann", "unknown field 'autor' (did you mean 'author'?)", 1),
      ("swift tittle:x", "unknown field 'tittle' (did you mean 'title'?)", 7),
      ("is:new", "unknown state 'is:new' (is:bookmarked, is:read, is:unread)", 1),
      ("has:pdf", "unknown state 'has:pdf'", 1), ("age<7x", "'7x' is not a duration", 5),
      ("age=7d", "age takes '<' or '>'", 5), ("age:7d", "age takes '<' or '>'", 1),
      ("date:2026-13-01", "'2026-13-01' is not a day", 6),
      ("date:2026-02-30", "is not a day", 6),
      ("date:2026-11-20..2026-11-01", "the range ends before it starts", 6),
      ("(swift", "'(' without its ')'", 1), ("swift)", "')' without its '('", 6),
      ("OR swift", "OR needs a term before it", 1), ("swift OR", "OR needs a term after it", 7),
      ("AND swift", "AND needs a term before it", 1), ("\"open", "without its closing", 1),
      ("/a(/", "'/a(/' is not a regular expression", 1), ("/open", "without its closing '/'", 1),
      ("title:/a(/", "'/a(/' is not a regular expression", 7),
      ("source:/hn/", "'source:' takes no regular expression", 1),
      ("title:/open", "without its closing '/'", 7),
      ("title:", "'title:' needs a value", 7), ("", "an empty query", 1),
      ("   ", "an empty query", 1), ("NOT", "NOT needs a term after it", 1),
      ("()", "empty parentheses", 1), ("(", "'(' without its ')'", 1),
      ("swift (", "'(' without its ')'", 7), ("swift -", "'-' needs a term right after it", 7),
      ("a - b", "'-' needs a term right after it", 3), ("title:\"  \"", "nothing to look for", 7),
    ])
  func refuses(query: String, problem: String, column: Int) {
    #expect {
      _ = try ArticleQuery(query, timeZone: .gmt)
    } throws: { error in
      guard let error = error as? ArticleQueryError else { return false }
      return error.problem.contains(problem) && error.column == column
    }
  }

  @Test("an error's message has the query and a caret under the column; exit 64, or 78 in config")
  func message() throws {
    var caught: ArticleQueryError?
    do { _ = try ArticleQuery("swift autor:ann", timeZone: .gmt) } catch { caught = error }
    let error = try #require(caught)
    #expect(
      error.message
        == "query: unknown field 'autor' (did you mean 'author'?); fields are title, author, "
        + "text, url, category, source, tag, is, has, date, age at column 7\n  swift autor:ann\n        ^"
    )
    #expect(error.exitCode == .usage)
    var inConfig = error
    inConfig.entry = "sources[3].search"
    #expect(inConfig.exitCode == .configuration)
    #expect(inConfig.message.hasPrefix("config.json: field 'sources[3].search'"))
  }

  @Test("a day is a day of the time zone given")
  func timeZone() throws {
    let paris = try #require(TimeZone(identifier: "Europe/Paris"))
    var matcher = QueryMatcher(
      try ArticleQuery("date:2026-11-02", timeZone: paris), facts: Self.facts)
    // 23:30 UTC on the 1st is 00:30 on the 2nd in Paris.
    let matched = matcher.matches(Self.articles[1].0)
    #expect(matched)
  }

  @Test("a regular expression that backtracks without end is stopped, matches nothing, is said")
  func runawayRegex() throws {
    var matcher = QueryMatcher(try ArticleQuery("/(a+)+$/", timeZone: .gmt), facts: Self.facts)
    let article = Article(
      id: "x", provider: "hn", title: String(repeating: "a", count: 40) + "!")
    let matched = matcher.matches(article)
    #expect(!matched)
    #expect(matcher.warnings.count == 1)
    #expect(matcher.warnings.first?.contains("/(a+)+$/") == true)
  }

  @Test("a query's expressions share one budget for the whole run; once spent they stay stopped")
  func wholeRunBudget() throws {
    // Every reading of the clock moves it 30 ms: each article costs at least 30 ms.
    let ticks = Mutex(0)
    let budget = PatternBudget(
      perMatch: .milliseconds(100), total: .seconds(1),
      clock: {
        .milliseconds(
          30
            * ticks.withLock {
              $0 += 1
              return $0
            })
      })
    let query = try ArticleQuery("/story [0-9]+/", timeZone: .gmt)
    var matcher = QueryMatcher(query, facts: Self.facts, budget: budget)
    let articles = (0..<200).map { Article(id: "\($0)", provider: "p", title: "Story \($0)") }
    let matched = articles.map { matcher.matches($0) }
    let count = matched.filter { $0 }.count
    #expect(count > 0 && count <= 34, "\(count)")
    #expect(matched.prefix(count).allSatisfy { $0 } && !matched.dropFirst(count).contains(true))
    #expect(budget.isSpent)
    #expect(matcher.warnings.count == 1)
    #expect(matcher.warnings.first?.contains("took their 1 s for this run") == true)
    #expect(matcher.warnings.first?.contains("/story [0-9]+/") == true)
    // A matcher built again for the same run neither compiles nor matches again.
    let readings = ticks.withLock { $0 }
    var again = QueryMatcher(query, facts: Self.facts, budget: budget)
    let matchedAgain = again.matches(articles[0])
    #expect(!matchedAgain)
    #expect(ticks.withLock { $0 } == readings, "no time spent once the run's budget is")
  }

  @Test(
    "days are YYYY-MM-DD and durations digits and a unit, nothing looser",
    arguments: [
      "date:+026-01-01", "date:2026-1-1", "date:2026-01-1", "age<0x10d", "age<1e3d",
      "age<+7d", "age<.5d", "age<infd", "date:２０２６-01-01",
    ])
  func strictValues(query: String) {
    #expect(throws: ArticleQueryError.self) { try ArticleQuery(query, timeZone: .gmt) }
  }

  @Test("the strict forms still read", arguments: ["date:2026-01-01", "age<7d", "age>1.5h"])
  func strictValuesRead(query: String) {
    #expect(throws: Never.self) { try ArticleQuery(query, timeZone: .gmt) }
  }

  @Test(
    "the 4,096 cap counts Unicode scalars: one letter with a million combining marks is refused")
  func capCountsScalars() throws {
    let marks = "x" + String(repeating: "\u{301}", count: 1_000_000)
    #expect(marks.count == 1)
    #expect(throws: ArticleQueryError.self) { try ArticleQuery(marks, timeZone: .gmt) }
    // 4,096 letters of three bytes each are within it.
    #expect(throws: Never.self) {
      try ArticleQuery(String(repeating: "語", count: 4_096), timeZone: .gmt)
    }
  }

  @Test("matchers sharing one article's folded fields answer as each alone does")
  func sharedFolds() throws {
    let queries = try ["title:story", "title:nothing", "author:ann", "story -title:café"].map {
      try ArticleQuery($0, timeZone: .gmt)
    }
    for (article, _) in Self.articles {
      var alone = queries.map { QueryMatcher($0, facts: Self.facts) }
      var sharing = alone
      var folds = QueryMatcher.FoldedFields()
      let expected = alone.indices.map { alone[$0].matches(article) }
      let shared = sharing.indices.map { sharing[$0].matches(article, sharing: &folds) }
      #expect(shared == expected, "\(article.title)")
    }
  }

  @Test("what a query needs read, and the words the index narrows by")
  func needsAndWords() throws {
    #expect(try ArticleQuery("is:unread tag:tech", timeZone: .gmt).needs == [.readMarks, .tags])
    #expect(try ArticleQuery("swift", timeZone: .gmt).needs.isEmpty)
    #expect(
      try ArticleQuery("tag:Tech swift tag:linux", timeZone: .gmt).requiredTags == [
        "tech", "linux",
      ])
    #expect(try ArticleQuery("tag:tech OR swift", timeZone: .gmt).requiredTags.isEmpty)
  }

  @Test(
    "the words the index narrows by: every branch a match may take",
    arguments: [
      ("swift", "swift"),
      ("swift title:rust -go", "swift rust"),
      ("swift OR rust", "swift | rust"),
      ("(rust OR swift) -sponsored", "rust | swift"),
      ("climate (title:storm OR text:flood) is:unread", "climate storm | climate flood"),
      // An author's and a category's words are in the index too, behind their field.
      ("climate (title:storm OR author:a)", "climate storm | climate author:a"),
      ("(a OR b) (c OR d)", "a | b"),
      ("(author:x OR y) (c OR d)", "author:x | y"),
      ("(url:x OR y) (c OR d)", "c | d"),
      ("author:ann", "author:ann"),
      ("author:\"Ann Lee\"", "author:ann>"),
      ("swift OR author:ann", "swift | author:ann"),
      ("category:politics -is:read", "category:politics"),
      ("swift OR url:github.com", ""),
      ("-swift", ""),
      ("is:unread", ""),
      // A phrase's longest run, bounded where the phrase goes on beside it (shown `<`, `>`).
      ("\"the climate\"", "<climate"),
      // An expression's literal words (#58.4).
      ("date:2026-11-01..2026-11-20 /\\bAI\\b/", "<ai>"),
      ("climate /storms?/", "climate storm"),
      ("/(rust|swift)lang/ OR title:/^go-/", "lang | <go>"),
      ("/rust|swift/", ""),
      ("author:/ann/", "author:ann"),
      ("category:/^Tech/", "category:<tech"),
      ("url:/github/", ""),
    ])
  func wordBranches(text: String, expected: String) throws {
    let branches = try ArticleQuery(text, timeZone: .gmt).wordBranches
    let shown = branches.map {
      $0.map {
        ($0.field == .text ? "" : "\($0.field):") + ($0.boundedBefore ? "<" : "")
          + String(decoding: $0.bytes, as: UTF8.self) + ($0.boundedAfter ? ">" : "")
      }.joined(separator: " ")
    }
    #expect(shown.joined(separator: " | ") == expected)
  }

  @Test(
    "an expression's literal words, what bounds them, and the patterns that give none",
    arguments: [
      ("\\bAI\\b", "<ai>"),
      ("climate", "climate"),
      ("Climat(e|ic)", "climat"),
      ("colou?r", "colo"),
      ("\\bgpt-4o?\\b", "<gpt>"),
      ("^Breaking: ", "<breaking>"),
      ("rust\\.?lang", "rust lang"),
      ("\\d+ votes\\b", "<votes>"),
      ("[a-z]+ing\\b", "ing>"),
      ("ab{0,2}cd", "cd"),
      ("a\\b", ""),
      ("x|y", ""),
      ("(?i)word", ""),
      ("\\x41pple", ""),
      ("caf\u{e9}s", "caf"),
      ("\\bſun\\b", "un>"),
      // Classes and groups end where ICU ends them: a `[` in a class opens a nested one, a
      // `]` first in a class is literal, a class in a group holds its own `)`.
      ("[a[b]c]def", "def"),
      ("[]x]yz", "yz"),
      ("[^]x]yz", "yz"),
      ("(a[)]b)cd", "cd"),
      // The fuzzer's: `ro` is inside the class, which ends at the first of the last three `]`.
      (#"[{"~[]p{["]{]ro]]]"#, ""),
      ("\\Q[ro]\\Eab", ""),
    ])
  func regexRuns(pattern: String, expected: String) {
    let shown = RegexRuns.required(in: pattern).map {
      ($0.boundedBefore ? "<" : "") + String(decoding: $0.bytes, as: UTF8.self)
        + ($0.boundedAfter ? ">" : "")
    }
    #expect(shown.joined(separator: " ") == expected, "\(pattern)")
  }

  @Test(
    "whenever an expression matches, the index words hold its runs as they are bounded",
    arguments: [
      ("\\bAI\\b", "The AI race", true),
      ("\\bAI\\b", "“AI” is everywhere", true),
      ("\\bAI\\b", "said again", false),
      ("\\bgpt-4o?\\b", "GPT-4 and gpt-4o", true),
      ("^Breaking: ", "Breaking: news", true),
      ("colou?r", "Color", true),
      ("\\d+ votes\\b", "In 300 votes, then", true),
      ("\\bſun\\b", "the sun", true),
      ("caf\u{e9}s", "Cafés", true),
      ("[a[b]c]def", "cdef", true),
      ("(a[)]b)cd", "a)bcd", true),
    ])
  func regexRunsIndexed(pattern: String, text: String, matches: Bool) throws {
    let expression = try NSRegularExpression(pattern: pattern, options: QueryMatcher.regexOptions)
    let found =
      expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    #expect(found == matches)
    var cache: [Unicode.Scalar: [UInt8]] = [:]
    var words = Set<[UInt8]>()
    SearchTokens.collect(ArticleSearch.fold(text, cache: &cache) + [0x0A], into: &words)
    let runs = RegexRuns.required(in: pattern)
    #expect(!runs.isEmpty)
    let indexed = runs.allSatisfy { run in
      words.contains { word in word.withUnsafeBufferPointer { run.isIn($0) } }
    }
    // A match's runs are always in its index words; a text that does not match may lack them.
    #expect(!found || indexed)
    if pattern == "\\bAI\\b" { #expect(indexed == found) }
  }

  @Test("past the most branches, the index is not asked")
  func tooManyBranches() throws {
    let words = (0...ArticleQuery.maximumBranches).map { "w\($0)" }
    #expect(try ArticleQuery(words.joined(separator: " OR "), timeZone: .gmt).wordBranches.isEmpty)
    let fewer = words.dropFirst().joined(separator: " OR ")
    #expect(try ArticleQuery(fewer, timeZone: .gmt).wordBranches.count == words.count - 1)
  }
}
