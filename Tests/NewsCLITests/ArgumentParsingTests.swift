import NewsCore
import Testing

@testable import NewsCLI

@Suite("Argument parsing")
struct ArgumentParsingTests {
  let spec = HeadlinesCommand.spec

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
    #expect(parsed.value(option) == value)
  }

  @Test("flags and positionals")
  func flags() throws {
    let parsed = try ArgumentParser.parse(["--json"], for: spec)
    #expect(parsed.has("json"))
    #expect(!parsed.has("help"))
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
    "numbers are checked",
    arguments: [("abc", false), ("0", false), ("101", false), ("1", true), ("100", true)])
  func numbers(text: String, valid: Bool) throws {
    let parsed = try ArgumentParser.parse(["--page-size", text], for: spec)
    if valid {
      #expect(try parsed.int("page-size", in: 1...100) == Int(text))
    } else {
      #expect(throws: UsageError.self) { try parsed.int("page-size", in: 1...100) }
    }
  }

  @Test(
    "suggestions", arguments: [("headline", "headlines"), ("hedlines", "headlines"), ("zzz", nil)])
  func suggestion(word: String, expected: String?) {
    #expect(Suggestion.closest(to: word, in: ["headlines", "show", "feed", "sync"]) == expected)
  }

  @Test("help text lists every option of the spec")
  func help() {
    let help = HelpFormatter.help(for: spec)
    for option in spec.allOptions { #expect(help.contains("--" + option.name)) }
    #expect(help.contains("USAGE: news headlines [options]"))
  }
}
