import FeedParsing
import NewsCore
import Testing

@testable import NewsCLI

@Suite("Argument parsing")
struct ArgumentParsingTests {
  let spec = HeadlinesCommand.spec(.builtIn)

  @Test(
    "long and short options, = and space, -- ends options",
    arguments: [
      (["--page-size", "5"], "page-size", "5"), (["--page-size=5"], "page-size", "5"),
      (["-q", "apple"], "query", "apple"), (["-qapple"], "query", "apple"),
      (["--query=a=b"], "query", "a=b"), (["--country", "de", "--country", "fr"], "country", "fr"),
      (["--query", "-minus"], "query", "-minus"),
    ])
  func values(arguments: [String], option: String, value: String) throws {
    let parsed = try ArgumentParser.parse(arguments, for: spec)
    #expect(parsed.values[option] == value)
  }

  @Test("flags and positionals")
  func flags() throws {
    let parsed = try ArgumentParser.parse(["--json"], for: spec)
    #expect(parsed[Options.json])
    #expect(!parsed[Options.help])
  }

  @Test(
    "mistakes are usage errors with a hint",
    arguments: [
      (["--pagesize", "5"], "unknown option '--pagesize'", "did you mean '--page-size'?"),
      (["--jsn"], "unknown option '--jsn'", "did you mean '--json'?"),
      (["--page-size"], "--page-size needs a value", nil),
      (["--json=yes"], "--json does not take a value", nil),
      (["-z"], "unknown option '-z'", nil),
      (["extra"], "unexpected argument 'extra'", nil),
      (["--", "--json"], "unexpected argument '--json'", nil),
    ])
  func errors(arguments: [String], message: String, hint: String?) {
    #expect {
      try ArgumentParser.parse(arguments, for: spec)
    } throws: { error in
      guard let error = error as? UsageError else { return false }
      return error.text.contains(message) && error.hint == hint && error.exitCode == .usage
        && error.message.contains("news headlines --help")
    }
  }

  @Test(
    "the parser checks values against their declared kind; commands read them typed",
    arguments: [("abc", false), ("0", false), ("101", false), ("1", true), ("100", true)])
  func numbers(text: String, valid: Bool) throws {
    if valid {
      let parsed = try ArgumentParser.parse(["--page-size", text], for: spec)
      #expect(parsed[Options.pageSize] == Int(text))
    } else {
      #expect {
        try ArgumentParser.parse(["--page-size", text], for: spec)
      } throws: { error in
        (error as? UsageError)?.text
          == "--page-size expects a whole number from 1 to 100, got '\(text)'"
      }
    }
  }

  @Test(
    "choices are checked by the parser, with a suggestion",
    arguments: [
      (["--category", "sprts"], "--category must be one of", "did you mean 'sports'?"),
      (
        ["--from", "bcc"], "--from must be one of newsapi, articles, bbc; got 'bcc'",
        "did you mean 'bbc'?"
      ),
    ])
  func choices(arguments: [String], message: String, hint: String?) {
    #expect {
      try ArgumentParser.parse(arguments, for: spec)
    } throws: { error in
      guard let error = error as? UsageError else { return false }
      return error.text.hasPrefix(message) && error.hint == hint
    }
  }

  @Test("lists are split at commas, blanks dropped; list choices are checked")
  func lists() throws {
    let parsed = try ArgumentParser.parse(["--sources", "bbc-news, ,cnn"], for: spec)
    #expect(parsed[Options.sources] == ["bbc-news", "cnn"])
    // Given again, a list grows: `--sources a --sources b` is `--sources a,b`.
    let again = try ArgumentParser.parse(
      ["--sources", "bbc-news", "--country", "de", "--sources=cnn,abc"], for: spec)
    #expect(again[Options.sources] == ["bbc-news", "cnn", "abc"])
    #expect(throws: UsageError.self) {
      try ArgumentParser.parse(["--search-in", "title,body"], for: SearchCommand.spec)
    }
  }

  @Test(
    "suggestions", arguments: [("headline", "headlines"), ("hedlines", "headlines"), ("zzz", nil)])
  func suggestion(word: String, expected: String?) {
    #expect(EditDistance.closest(to: word, in: ["headlines", "show", "feed", "sync"]) == expected)
  }

  @Test("help text lists every option of the spec")
  func help() {
    let help = HelpFormatter.help(for: spec)
    for option in spec.allOptions { #expect(help.contains("--" + option.name)) }
    #expect(help.contains("USAGE: news headlines [options]"))
  }
}
