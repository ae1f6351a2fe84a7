import FeedParsing
import Foundation
import NewsCLI
import NewsCore
import TestSupport
import Testing

/// A provider written for this test: one type, and one line to register it.
struct EchoProvider: Provider {
  var name: String { "echo" }
  var layout: ArticleLayout { .dated }
  var filters: Set<QueryFilter> { [.query] }
  func missingRequirement(in configuration: Configuration) -> String? { nil }
  func heading(for query: TopHeadlinesQuery) -> String { "Echo · \(query.query ?? "all")" }
  func storageKey(for query: TopHeadlinesQuery) -> String { "echo \(query.query ?? "")" }

  func fetch(_ query: TopHeadlinesQuery, using context: ProviderContext) async throws
    -> ArticleList
  {
    let url = context.configuration.newsAPIURL.appendingPathComponent("echo")
    let response = try await context.transport.get(url)
    let titles = String(decoding: response.body, as: UTF8.self).split(separator: "\n")
    let articles = titles.map { title in
      Article(
        id: "echo-" + title, provider: name, title: String(title),
        publishedAt: Date(timeIntervalSince1970: 0))
    }
    return ArticleList(
      provider: name, totalResults: articles.count, articles: articles, fetchedAt: context.now())
  }
}

@Suite("Providers: one type and one registration line")
struct ProviderRegistryTests {
  let harness: Harness
  let registry = ProviderRegistry.builtIn.adding(EchoProvider())

  init() throws {
    harness = try Harness()
    harness.server.route("/echo", LoopbackServer.Response(body: Data("first\nsecond".utf8)))
  }

  @Test("a provider added in one line lists, stores, shows, reads offline and syncs")
  func addedProvider() async throws {
    let list = await harness.run(
      ["headlines", "--from", "echo", "-q", "x"], providers: registry)
    #expect(list.code == .success, "\(list.err)")
    #expect(list.out.hasPrefix("Echo · x · 2 of 2"))
    // Its layout (dated) shows the day under each headline.
    #expect(list.out.contains("1 January 1970"))
    let shown = await harness.run(["show", "2", "--json"], providers: registry)
    #expect(try shown.json()["title"] as? String == "second")
    let offline = await harness.run(
      ["headlines", "--from", "echo", "-q", "x", "--offline", "--json"], providers: registry)
    #expect((try offline.json()["articles"] as? [Any])?.count == 2)
    // A filter it does not take is refused, naming the providers that do.
    let refused = await harness.run(
      ["headlines", "--from", "echo", "--country", "fr"], providers: registry)
    #expect(refused.code == .usage)
    #expect(refused.err.hasPrefix("news: --country only applies to --from newsapi"))
  }

  @Test("sync pulls every registered provider, and --from knows only registered names")
  func syncAndChoices() async throws {
    for path in ["/articles", "/bbc.json", "/feed/a.json", "/feed/b.json", "/feed/c.json"] {
      harness.server.route(path, .json("[]", status: 503))
    }
    harness.server.route("/v2/top-headlines", .fixture("top-headlines-us-2022-02-17.json"))
    let sync = await harness.run(["sync", "--json"], providers: registry)
    let sources = try #require(try sync.json()["sources"] as? [[String: Any]])
    let echo = try #require(sources.first { $0["name"] as? String == "echo" })
    #expect(echo["status"] as? String == "ok")
    #expect(echo["new"] as? Int == 2)
    let unknown = await harness.run(["headlines", "--from", "echo"])
    #expect(unknown.code == .usage)
    #expect(unknown.err.contains("--from must be one of newsapi, articles, bbc; got 'echo'"))
  }
}

@Suite("The test context: a forgotten dependency fails loudly")
struct UnimplementedContextTests {
  @Test("a command run with the unimplemented network says so instead of reaching the real one")
  func unimplementedNetwork() async throws {
    let home = TemporaryDirectory()
    let err = Recorder<String>()
    var context = Context.unimplemented(
      environment: [
        "HOME": home.url.path, "NEWS_HOME": home.path("n"), "NEWSAPI_KEY": "k",
        "NEWSAPI_URL": "http://127.0.0.1:9", "NEWS_ANALYTICS": "off",
      ],
      currentDirectory: home.url, console: Console(out: { _ in }, err: { err.record($0) }))
    context.timing = .test()
    context.randomBytes = SecureRandom.bytes
    let code = await NewsCLI.run(["headlines", "--json"], context: context)
    #expect(code != .success)
    #expect(err.all.joined().contains("unimplemented dependency 'httpClient"))
  }

  @Test("an unimplemented clock or random source is a failure of the test naming it, not a crash")
  func unimplementedReported() {
    UnimplementedReporting.installed
    withKnownIssue {
      #expect(NewsDependencies.unimplemented.timing.now() == Date(timeIntervalSince1970: 0))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("unimplemented dependency 'timing.now'") }
    }
    withKnownIssue {
      #expect(NewsDependencies.unimplemented.randomBytes(4) == [0, 0, 0, 0])
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("'randomBytes'") }
    }
  }

  @Test("unimplemented timing throws when a pause or a limit is waited for")
  func unimplementedTiming() async {
    await #expect(throws: UnimplementedDependency.self) {
      try await Timing.unimplemented.pause(.seconds(1))
    }
    await #expect(throws: UnimplementedDependency.self) {
      try await Timing.unimplemented.limit(.seconds(1))
    }
  }
}
