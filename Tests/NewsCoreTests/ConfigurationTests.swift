import Foundation
import TestSupport
import Testing

@testable import FeedParsing
@testable import NewsCore

@Suite("Configuration")
struct ConfigurationTests {
  let home = ["HOME": "/home/reader"]

  @Test("defaults apply when nothing is set")
  func defaults() throws {
    let configuration = try Configuration(environment: home)
    #expect(configuration.newsAPIURL.absoluteString == "https://newsapi.org")
    #expect(configuration.infoURL.absoluteString == "https://cn-news-info-api.herokuapp.com")
    #expect(
      configuration.feedURLs["b"]?.absoluteString
        == "http://chegg-mobile-promotions.cheggcdn.com/ios/home-assignments/source_b.json")
    #expect(configuration.retryDelay == .seconds(2))
    #expect(configuration.timeout == .seconds(15))
    #expect(configuration.analyticsEnabled)
    #expect(!configuration.noColor)
    #expect(configuration.newsAPIKey == nil)
    #expect(configuration.paths.configDirectory.path == "/home/reader/.config/news")
    #expect(configuration.paths.dataDirectory.path == "/home/reader/.local/share/news")
    #expect(configuration.paths.cacheDirectory.path == "/home/reader/.cache/news")
  }

  @Test("the environment beats .env, which beats the defaults")
  func precedence() throws {
    let dotEnv = """
      # a comment
      NEWSAPI_KEY=from-dotenv
      export NEWS_TIMEOUT="7.5"
      NEWS_RETRY_DELAY='0.25'
      NEWSAPI_URL=http://dotenv.example # trailing comment
      """
    let configuration = try Configuration(
      environment: home.merging(["NEWSAPI_KEY": "from-env"]) { $1 }, dotEnv: dotEnv)
    #expect(configuration.newsAPIKey == "from-env")
    #expect(configuration.timeout == .milliseconds(7500))
    #expect(configuration.retryDelay == .milliseconds(250))
    #expect(configuration.newsAPIURL.absoluteString == "http://dotenv.example")
  }

  @Test("an empty value counts as unset")
  func emptyIsUnset() throws {
    let configuration = try Configuration(environment: home.merging(["NEWS_TIMEOUT": ""]) { $1 })
    #expect(configuration.timeout == .seconds(15))
  }

  @Test("NEWS_BROWSE_ORDER: newest first by default, or as each source lists them")
  func browseOrder() throws {
    #expect(try Configuration(environment: home).newestFirst)
    let source = try Configuration(
      environment: home.merging(["NEWS_BROWSE_ORDER": "source"]) { $1 })
    #expect(!source.newestFirst)
  }

  @Test(
    "a bad value is an error naming the variable, exit 78",
    arguments: [
      ("NEWS_TIMEOUT", "abc"), ("NEWS_TIMEOUT", "0"), ("NEWS_TIMEOUT", "-1"),
      ("NEWS_TIMEOUT", "nan"), ("NEWS_RETRY_DELAY", "two"), ("NEWS_RETRY_DELAY", "-0.5"),
      ("NEWSAPI_URL", "newsapi.org"), ("NEWS_INFO_URL", "ftp://x.example"),
      ("NEWS_FEED_A_URL", "http://"), ("NEWS_HOME", "relative/dir"),
      ("DO_NOT_TRACK", "maybe"), ("NEWS_ANALYTICS", "sometimes"),
      ("NEWS_RETENTION_DAYS", "-1"), ("NEWS_RETENTION_DAYS", "1.5"), ("NEWS_RETENTION_MAX", "-3"),
      ("COLUMNS", "wide"), ("NEWS_COUNTS_DEADLINE", "0"), ("NEWS_SOURCE_DEADLINE", "soon"),
      ("NEWS_FEED_ANY_TTL", "-5"), ("NEWS_COUNTRY", "usa"), ("NEWS_CONCURRENCY", "0"),
      ("NEWS_HOST_CONCURRENCY", "65"), ("NEWS_HOST_CONCURRENCY", "many"),
      ("NEWS_BROWSE_ORDER", "oldest"),
    ])
  func badValue(variable: String, value: String) {
    #expect {
      try Configuration(environment: home.merging([variable: value]) { $1 })
    } throws: { error in
      guard let error = error as? ConfigurationError else { return false }
      return error.exitCode == .configuration && error.message.contains(variable)
        && error.message.contains(value)
    }
  }

  @Test("retention: 30 days and 5,000 by default; 0 is no limit, to keep everything")
  func retention() throws {
    #expect(try Configuration(environment: home).retention == RetentionPolicy())
    let everything = try Configuration(
      environment: home.merging(["NEWS_RETENTION_DAYS": "0", "NEWS_RETENTION_MAX": "0"]) { $1 })
    #expect(everything.retention == .everything)
    let set = try Configuration(
      environment: home.merging(["NEWS_RETENTION_DAYS": "7", "NEWS_RETENTION_MAX": "200"]) { $1 })
    #expect(set.retention == RetentionPolicy(maximumAge: .seconds(7 * 86_400), maximumCount: 200))
  }

  @Test("concurrency limits: polite defaults, set by NEWS_CONCURRENCY and NEWS_HOST_CONCURRENCY")
  func concurrency() throws {
    let defaults = try Configuration(environment: home)
    #expect(defaults.concurrency == 96 && defaults.hostConcurrency == 12)
    let set = try Configuration(
      environment: home.merging(["NEWS_CONCURRENCY": "64", "NEWS_HOST_CONCURRENCY": "16"]) { $1 })
    #expect(set.concurrency == 64 && set.hostConcurrency == 16)
  }

  @Test(
    "analytics switch",
    arguments: [
      ([:], true), (["DO_NOT_TRACK": "1"], false), (["DO_NOT_TRACK": "0"], true),
      (["NEWS_ANALYTICS": "off"], false), (["NEWS_ANALYTICS": "on"], true),
      (["NEWS_ANALYTICS": "on", "DO_NOT_TRACK": "1"], false),
    ])
  func analytics(environment: [String: String], enabled: Bool) throws {
    let configuration = try Configuration(environment: home.merging(environment) { $1 })
    #expect(configuration.analyticsEnabled == enabled)
  }

  @Test("NO_COLOR set to anything disables colour")
  func noColor() throws {
    #expect(try Configuration(environment: home.merging(["NO_COLOR": "1"]) { $1 }).noColor)
  }

  @Test("NEWS_HOME puts every file in one directory; XDG variables are honoured")
  func paths() throws {
    let single = try Configuration(environment: home.merging(["NEWS_HOME": "/tmp/n"]) { $1 })
    #expect(single.paths == Paths(home: URL(fileURLWithPath: "/tmp/n", isDirectory: true)))
    let xdg = try Configuration(
      environment: home.merging([
        "XDG_CONFIG_HOME": "/x/config", "XDG_DATA_HOME": "/x/data", "XDG_CACHE_HOME": "relative",
      ]) { $1 })
    #expect(xdg.paths.configDirectory.path == "/x/config/news")
    #expect(xdg.paths.dataDirectory.path == "/x/data/news")
    #expect(xdg.paths.cacheDirectory.path == "/home/reader/.cache/news")
  }

  @Test("the key can come from NEWSAPI_KEY_FILE, trimmed")
  func keyFile() throws {
    let directory = TemporaryDirectory()
    let path = try directory.write("key", "  secret-from-file\n")
    let configuration = try Configuration(
      environment: home.merging(["NEWSAPI_KEY_FILE": path]) { $1 })
    #expect(try configuration.requireNewsAPIKey() == "secret-from-file")
  }

  @Test("a missing key file is a configuration error naming the file")
  func missingKeyFile() {
    #expect(throws: ConfigurationError.self) {
      try Configuration(environment: home.merging(["NEWSAPI_KEY_FILE": "/nonexistent/k"]) { $1 })
    }
  }

  @Test("a missing key names NEWSAPI_KEY and .env.example")
  func missingKey() throws {
    let configuration = try Configuration(environment: home)
    #expect {
      try configuration.requireNewsAPIKey()
    } throws: { error in
      let message = (error as? ConfigurationError)?.message ?? ""
      return message.contains("NEWSAPI_KEY") && message.contains(".env.example")
    }
  }

  @Test("a key with a line break is refused without repeating it")
  func keyWithNewline() {
    #expect {
      try Configuration(environment: home.merging(["NEWSAPI_KEY": "abc\r\nX-Evil: 1"]) { $1 })
    } throws: { error in
      let message = (error as? ConfigurationError)?.message ?? ""
      return message.contains("NEWSAPI_KEY") && !message.contains("abc")
    }
  }

  @Test(
    ".env syntax",
    arguments: [
      ("A=1", ["A": "1"]), ("  A = 1  ", ["A": "1"]), ("A=\"x # y\"", ["A": "x # y"]),
      ("A='x \\n y'", ["A": "x \\n y"]), ("A=\"x\\ny\"", ["A": "x\ny"]), ("A=", ["A": ""]),
      ("export B=2\n\n# c\nC=3", ["B": "2", "C": "3"]), ("A=b=c", ["A": "b=c"]),
    ])
  func dotEnv(text: String, expected: [String: String]) throws {
    #expect(try DotEnv.parse(text) == expected)
  }

  @Test(
    "a malformed .env line names the file and line",
    arguments: ["JUSTAWORD", "1A=2", "A=\"unterminated", "A='x' trailing", "=value"])
  func dotEnvError(text: String) {
    #expect(throws: ConfigurationError.dotEnvSyntax(file: ".env", line: 2)) {
      try DotEnv.parse("OK=1\n" + text)
    }
  }

  @Test("a store key that is not 32 bytes is exit 78 naming the variable, never echoing it")
  func badStoreKey() {
    #expect {
      try Configuration(environment: home.merging(["NEWS_STORE_KEY": "c2hvcnQ="]) { $1 })
    } throws: { error in
      guard let error = error as? ConfigurationError else { return false }
      return error.exitCode == .configuration && error.message.hasPrefix("NEWS_STORE_KEY")
        && !error.message.contains("c2hvcnQ=")
    }
  }
}

@Suite("Text files written anywhere: LF, CRLF, CR, a byte-order mark")
struct TextFileTests {
  static let endings = ["\n", "\r\n", "\r"]

  @Test(".env", arguments: endings)
  func dotEnv(ending: String) throws {
    let text = "\u{FEFF}A=1" + ending + "# comment" + ending + "B=\"two\"" + ending
    #expect(try DotEnv.parse(text) == ["A": "1", "B": "two"])
  }

  @Test("newsboat's urls file", arguments: endings)
  func urls(ending: String) throws {
    let text = "\u{FEFF}https://a.example/feed tech" + ending + "https://b.example/feed" + ending
    let (subscriptions, _) = try SubscriptionFile.parse(Data(text.utf8))
    #expect(
      subscriptions.map(\.url.absoluteString) == [
        "https://a.example/feed", "https://b.example/feed",
      ])
    #expect(subscriptions.map(\.tags) == [["tech"], []])
  }

  @Test("OPML", arguments: endings)
  func opml(ending: String) throws {
    let text =
      "\u{FEFF}<?xml version=\"1.0\"?>" + ending + "<opml><body>" + ending
      + "<outline text=\"A\" xmlUrl=\"https://a.example/feed\"/>" + ending + "</body></opml>"
      + ending
    let (subscriptions, _) = try SubscriptionFile.parse(Data(text.utf8))
    #expect(subscriptions.map(\.title) == ["A"])
  }

  @Test("config.json", arguments: endings)
  func configJSON(ending: String) throws {
    let text =
      "\u{FEFF}{" + ending + "\"sources\": [{\"name\": \"d\", \"url\": \"https://d.example/f\"}]"
      + ending + "}"
    let file = try FeedConfigFile.parse(Data(text.utf8), path: "config.json")
    #expect(file.sources.map(\.name) == ["d"])
  }

  @Test("the store key file and NEWSAPI_KEY_FILE", arguments: endings)
  func keyFiles(ending: String) throws {
    #expect(
      try StoreKey.decode(
        "\u{FEFF}" + String(repeating: "A", count: 43) + "=" + ending, source: "k"
      ).count == 32)
    let directory = TemporaryDirectory()
    let path = try directory.write("newsapi-key", "\u{FEFF}abc123" + ending)
    let configuration = try Configuration(environment: [
      "HOME": directory.url.path, "NEWSAPI_KEY_FILE": path,
    ])
    #expect(configuration.newsAPIKey == "abc123")
  }

  @Test("an unreadable NEWSAPI_KEY_FILE is an error even when NEWSAPI_KEY is set; NEWSAPI_KEY wins")
  func keyFileWithKey() throws {
    let directory = TemporaryDirectory()
    #expect(throws: ConfigurationError.self) {
      try Configuration(environment: [
        "HOME": directory.url.path, "NEWSAPI_KEY": "k", "NEWSAPI_KEY_FILE": "/nonexistent",
      ])
    }
    #expect {
      try Configuration(environment: [
        "HOME": directory.url.path, "NEWSAPI_KEY_FILE": directory.url.path,
      ])
    } throws: { error in
      (error as? ConfigurationError)?.message.contains("a directory, not a file") == true
    }
    let path = try directory.write("newsapi-key", "fromfile\n")
    let both = try Configuration(environment: [
      "HOME": directory.url.path, "NEWSAPI_KEY": "k", "NEWSAPI_KEY_FILE": path,
    ])
    #expect(both.newsAPIKey == "k")
  }
}
