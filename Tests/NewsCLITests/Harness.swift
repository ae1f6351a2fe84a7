import FeedParsing
import Foundation
import NewsCLI
import NewsCore
import Synchronization
import TestSupport
import Testing

/// What one run of `news` printed and returned.
struct RunResult {
  var code: ExitCode
  var out: String
  var err: String

  /// Standard output parsed as JSON.
  func json() throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(out.utf8))
    guard let dictionary = object as? [String: Any] else { throw HarnessError.notAnObject }
    return dictionary
  }
}

enum HarnessError: Error { case notAnObject }

/// Runs the command line in-process against a loopback server, in a fresh `NEWS_HOME`.
final class Harness: Sendable {
  let server: LoopbackServer
  let home = TemporaryDirectory()
  let sleeps = Recorder<Duration>()

  init() throws {
    UnimplementedReporting.installed
    server = try LoopbackServer()
  }

  // A request held by the server may be all that still holds the server (a run gave up on it and
  // left it waiting): stopping it with the test lets that request end and everything go.
  deinit { server.stop() }

  /// The environment pointing every endpoint at the loopback server.
  var environment: [String: String] {
    let base = server.baseURL.absoluteString
    return [
      "HOME": home.url.path, "NEWS_HOME": home.path("news"), "NEWSAPI_KEY": "test-key-123",
      "NEWSAPI_URL": base, "NEWS_INFO_URL": base + "/info", "NEWS_BBC_URL": base + "/bbc.json",
      "NEWS_ANALYTICS_URL": base + "/analytics", "NEWS_ARTICLES_URL": base + "/articles",
      "NEWS_FEED_A_URL": base + "/feed/a.json", "NEWS_FEED_B_URL": base + "/feed/b.json",
      "NEWS_FEED_C_URL": base + "/feed/c.json", "NEWS_ANALYTICS": "off",
      // Every article asks its counts of the loopback info API (the default asks newsapi's only).
      "NEWS_COUNTS": "all",
    ]
  }

  /// A setting-up run (a list fetched, an article read) that the test needs to have succeeded:
  /// one that fails records an issue naming it, so a test never passes on a setup that broke.
  @discardableResult
  func succeed(
    _ arguments: [String], environment overrides: [String: String?] = [:],
    now: Date = Date(timeIntervalSince1970: 1_645_120_000),
    sourceLocation: SourceLocation = #_sourceLocation
  ) async -> RunResult {
    let result = await run(arguments, environment: overrides, now: now)
    if result.code != .success {
      Issue.record(
        "setup \(arguments.joined(separator: " ")) exited \(result.code.rawValue): \(result.err)",
        sourceLocation: sourceLocation)
    }
    return result
  }

  func run(
    _ arguments: [String], environment overrides: [String: String?] = [:], terminal: Bool = false,
    width: Int = 80, now: Date = Date(timeIntervalSince1970: 1_645_120_000),
    analyticsFlushLimit: Duration = .seconds(5), deadline: Sleeper? = nil,
    providers: ProviderRegistry = .builtIn, serving: ServeHooks? = nil, stdin: [String] = [],
    onOutput: (@Sendable (String) -> Void)? = nil
  ) async -> RunResult {
    var environment = self.environment
    for (key, value) in overrides { environment[key] = value }
    let out = Mutex("")
    let err = Mutex("")
    let sleeps = self.sleeps
    // Every dependency fails loudly unless set here: the loopback network, time that a test
    // controls (pauses recorded and instant; limits, deadlines included, pass only when the test
    // says: nothing depends on the machine's speed), real random bytes for the store.
    var context = Context.unimplemented(
      environment: environment, currentDirectory: home.url,
      console: Console(
        out: { text in
          onOutput?(text)
          out.withLock { $0 += text }
        }, err: { text in err.withLock { $0 += text } },
        stdoutIsTerminal: terminal, stderrIsTerminal: terminal, width: width))
    context.httpClient = LiveHTTPClient.make(environment: environment)
    context.timing = .test(now: now, pauses: sleeps, limit: deadline)
    context.randomBytes = SecureRandom.bytes
    context.providers = providers
    context.analyticsFlushLimit = analyticsFlushLimit
    // `news serve` is stopped by the test, never by a signal; passwords are stretched lightly.
    var hooks = serving ?? ServeHooks()
    if serving == nil { hooks.stop = {} }
    hooks.iterations = 2
    context.serving = hooks
    let lines = Mutex(stdin)
    context.readStandardInput = { lines.withLock { $0.isEmpty ? nil : $0.removeFirst() } }
    let code = await NewsCLI.run(arguments, context: context)
    // The server was told what to expect; anything else is a test that passes for a wrong reason.
    let unexpected = server.unexpectedRequests.map { "\($0.method) \($0.target)" }
    if !unexpected.isEmpty {
      Issue.record("unexpected requests: \(unexpected.joined(separator: ", "))")
    }
    return RunResult(code: code, out: out.withLock { $0 }, err: err.withLock { $0 })
  }
}

extension Harness {
  /// Every built-in provider and demo source answered from its fixture.
  func routeDemoSources() {
    server.route("/v2/top-headlines", .fixture("top-headlines-us-2022-02-17.json"))
    for name in ["a", "b", "c"] {
      server.route("/feed/\(name).json", .fixture("source_\(name).readme-sample.json"))
    }
    server.route("/articles", .fixture("articles.json"))
    server.route("/bbc.json", .fixture("headlines.json"))
  }
}
