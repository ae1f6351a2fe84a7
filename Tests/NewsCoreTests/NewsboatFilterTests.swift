import Testing

@testable import NewsCore

/// newsboat's filter language made a query of ours: each operator and attribute, and the
/// grouping newsboat gives (one level, to the right) kept with parentheses.
@Suite("newsboat's filter language in news's queries")
struct NewsboatFilterTests {
  @Test(
    "each attribute and operator",
    arguments: [
      (#"title =~ "rust""#, "title:/rust/"),
      (#"title !~ "^Ask""#, "-title:/^Ask/"),
      (#"author = "Ann Lee""#, "author:/^Ann Lee$/"),
      (#"title = "C++ (news)""#, #"title:/^C\+\+ \(news\)$/"#),
      (#"author != "bot""#, "-author:/^bot$/"),
      (#"content =~ "gpt""#, "text:/gpt/"),
      (#"link =~ "lwn\.net""#, #"url:/lwn\.net/"#),
      (#"tags # "Tech""#, "tag:tech"),
      (#"tags !# "sport""#, "-tag:sport"),
      (#"unread = "yes""#, "is:unread"),
      (#"unread = "no""#, "is:read"),
      (#"unread != "yes""#, "is:read"),
      ("age < 7", "age<7d"),
      ("age > 30", "age>30d"),
      ("age between 1:7", "age>1d age<7d"),
      (#"enclosure_url != """#, "has:enclosure"),
      (#"flags # "s""#, "is:bookmarked"),
      (#"flags !# "s""#, "-is:bookmarked"),
      (#"title # "climate policy""#, #"title:"climate policy""#),
      (#"pubDate > "2026-11-01""#, "date>2026-11-01"),
      (#"pubDate <= "2026-11-01 10:00""#, "date<=2026-11-01"),
      ("pubDate between 2024-01-01:2024-12-31", "date:2024-01-01..2024-12-31"),
    ])
  func terms(filter: String, query: String) throws {
    #expect(try NewsboatFilter.translate(filter) == query)
    #expect(throws: Never.self, "our parser reads it") { try ArticleQuery.check(query) }
  }

  @Test(
    "written as a filter: one of newsboat's attributes and an operator, whether it translates",
    arguments: [
      (#"title =~ "x""#, true), (#"feedtitle = "LWN""#, true), ("unread_count > 0", true),
      ("age between 1:3", true), ("C# tips", false), ("title", false), ("sponsored post", false),
      (#"title = "x"#, false), ("tags #", false),
    ])
  func isFilter(text: String, filter: Bool) {
    #expect(NewsboatFilter.isFilter(text) == filter)
  }

  @Test("and and or: one precedence, grouped to the right, kept with parentheses")
  func precedence() throws {
    #expect(
      try NewsboatFilter.translate(#"unread = "yes" and tags # "tech" or age < 2"#)
        == "(is:unread) AND ((tag:tech) OR (age<2d))")
    #expect(
      try NewsboatFilter.translate(#"(unread = "yes" or age < 2) and title =~ "x""#)
        == "((is:unread) OR (age<2d)) AND (title:/x/)")
    for query in [
      try NewsboatFilter.translate(#"unread = "yes" and tags # "tech" or age < 2"#),
      try NewsboatFilter.translate(#"(unread = "yes" or age < 2) and title =~ "x""#),
    ] {
      #expect(throws: Never.self) { try ArticleQuery.check(query) }
    }
  }

  @Test(
    "what has no counterpart is refused, saying what",
    arguments: [
      (#"feed_title = "LWN""#, "'feed_title =' has no counterpart"),
      (#"flags # "r""#, "'flags #' has no counterpart"),
      (#"pubDate > "yesterday""#, "'pubDate >' has no counterpart"),
      ("pubDate between 2024-01-01:", "'pubDate between' has no counterpart"),
      (#"title =~ "a/b""#, "holding '/'"),
      (#"title = "x" and"#, "a term missing at the end"),
      (#"(title = "x""#, "a '(' without its ')'"),
      (#"title "x""#, "'title' without an operator"),
      (#"title = "x"#, "a string without its end"),
      ("", "an empty expression"),
    ])
  func refused(filter: String, words: String) {
    #expect {
      try NewsboatFilter.translate(filter)
    } throws: { error in
      (error as? NewsboatFilter.Refusal)?.reason.contains(words) == true
    }
  }
}
