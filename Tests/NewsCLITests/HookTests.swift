import FeedParsing
import Foundation
import NewsCore
import TestSupport
import Testing

/// Hooks (#36): a `newItem` command once per item new in a sync (its JSON on stdin, its id,
/// title, link and source in the environment), an `afterSync` command once; failing or hanging
/// ones are warnings, never a failed sync, and none sees a secret.
@Suite("sync hooks: newItem and afterSync")
struct HookTests {
  let harness: Harness
  let items = Recorder<String>()

  init() throws {
    harness = try Harness()
    let items = self.items
    harness.server.route("/r.xml") { _ in
      let entries = items.all.map {
        "<item><title>Story \($0)</title><link>https://r.example/\($0)</link></item>"
      }.joined()
      return .json("<rss version=\"2.0\"><channel><title>R</title>\(entries)</channel></rss>")
    }
  }

  /// `config.json` with the demo sources off, the feed `r` (asked at every run), `hooks` and
  /// `extra` members; `r` fetched once first, empty (a source's first answer is what it held,
  /// no news: no hook runs for it), then serving the stories `one` and `two`.
  /// With `hidden`, `r` is hidden (newsboat's `!`).
  func config(
    _ hooks: String, extra: String = "", with variables: [String: String?] = [:],
    hidden: Bool = false
  ) async throws -> [String: String?] {
    let base = harness.server.baseURL.absoluteString
    let off = ["a", "b", "c", "articles", "bbc"].map { #"{"name": "\#($0)", "enabled": false}"# }
    let sources =
      #""sources": [\#(off.joined(separator: ", ")), {"name": "r", "url": "\#(base)/r.xml", "ttl": 0, "hidden": \#(hidden)}]"#
    let file = try harness.home.write("config.json", "{\(sources)\(extra)}")
    let environment = (["NEWS_CONFIG": file, "NEWSAPI_KEY": nil] as [String: String?])
      .merging(variables) { $1 }
    await harness.succeed(["sync"], environment: environment)
    _ = try harness.home.write("config.json", "{\(sources)\(extra), \"hooks\": \(hooks)}")
    items.record("one")
    items.record("two")
    return environment
  }

  func lines(_ name: String) -> [String] {
    ((try? String(contentsOfFile: harness.home.path(name), encoding: .utf8)) ?? "")
      .split(separator: "\n").map(String.init)
  }

  @Test("newItem runs once per new item across two syncs, with its JSON and variables")
  func newItemOnce() async throws {
    let log = harness.home.path("items.log")
    let json = harness.home.path("stdin.log")
    let environment = try await config(
      #"{"newItem": "printf '%s|%s|%s|%s\\n' \"$NEWS_ITEM_ID\" \"$NEWS_ITEM_TITLE\" \"$NEWS_ITEM_SOURCE\" \"$NEWS_ITEM_URL\" >> \#(log); cat >> \#(json)"}"#
    )
    let first = await harness.run(["sync"], environment: environment)
    #expect(first.code == .success, "\(first.err)")
    #expect(
      lines("items.log").sorted() == [
        "r.example-one|Story one|r|https://r.example/one",
        "r.example-two|Story two|r|https://r.example/two",
      ])
    let item = try JSONSerialization.jsonObject(
      with: Data(try #require(lines("stdin.log").first).utf8))
    #expect((item as? [String: Any])?["source"] as? String == "r")
    items.record("three")
    // Asked again at once (a sync asks a source when it is due: --refresh, whatever).
    let second = await harness.run(["sync", "--refresh"], environment: environment)
    #expect(second.code == .success, "\(second.err)")
    #expect(lines("items.log").count == 3)
    #expect(lines("items.log").last == "r.example-three|Story three|r|https://r.example/three")
    // Nothing new: no run.
    _ = await harness.run(["sync", "--refresh"], environment: environment)
    #expect(lines("items.log").count == 3)
  }

  @Test("no hook sees a secret; afterSync gets the report once; --exec stands for newItem")
  func environmentAndAfterSync() async throws {
    let envLog = harness.home.path("env.log")
    let report = harness.home.path("report.log")
    let key = Data(repeating: 5, count: 32).base64EncodedString()
    var environment = try await config(
      #"{"newItem": "echo never >> \#(harness.home.path("never.log"))", "afterSync": "cat > \#(report); env > \#(envLog)"}"#,
      with: ["NEWS_STORE_KEY": key])
    environment["NEWSAPI_KEY"] = "secret-api-key"
    environment["READER_PASSWORD"] = "hunter2"
    harness.server.route("/v2/top-headlines", .fixture("top-headlines-us-2022-02-17.json"))
    let exec = harness.home.path("exec.log")
    let sync = await harness.run(
      ["sync", "--exec", "echo \"$NEWS_ITEM_ID\" >> \(exec)"], environment: environment)
    #expect(sync.code == .success, "\(sync.err)")
    // The feed's two items and newsapi.org's 20 headlines: providers' items run hooks too.
    #expect(lines("exec.log").count == 22)
    #expect(lines("exec.log").filter { $0.hasPrefix("r.example-") }.count == 2)
    #expect(lines("never.log").isEmpty, "--exec stands for the configured newItem")
    let sent = try JSONSerialization.jsonObject(
      with: Data(try #require(lines("report.log").first).utf8))
    #expect(((sent as? [String: Any])?["sources"] as? [[String: Any]])?.isEmpty == false)
    let seen = lines("env.log").joined(separator: "\n")
    #expect(seen.contains("HOME="))
    for secret in [key, "secret-api-key", "hunter2"] { #expect(!seen.contains(secret)) }
  }

  @Test("the plain feed runs newItem for a hidden source's new items, which it does not list")
  func hiddenSourceHook() async throws {
    let log = harness.home.path("items.log")
    let environment = try await config(
      #"{"newItem": "echo \"$NEWS_ITEM_ID\" >> \#(log)"}"#, hidden: true)
    let feed = await harness.run(["feed"], environment: environment)
    #expect(feed.code == .success, "\(feed.err)")
    #expect(!feed.out.contains("Story one"), "\(feed.out)")
    #expect(lines("items.log").sorted() == ["r.example-one", "r.example-two"])
  }

  @Test("a provider's headlines run newItem once each, and not again on the next sync")
  func providerItems() async throws {
    let base = harness.server.baseURL.absoluteString
    let off = ["a", "b", "c", "bbc", "newsapi"].map { #"{"name": "\#($0)", "enabled": false}"# }
    let log = harness.home.path("items.log")
    let file = try harness.home.write(
      "config.json",
      #"{"sources": [\#(off.joined(separator: ", ")), {"name": "r", "url": "\#(base)/r.xml"}], "hooks": {"newItem": "printf '%s|%s\\n' \"$NEWS_ITEM_SOURCE\" \"$NEWS_ITEM_TITLE\" >> \#(log)"}}"#
    )
    harness.server.route("/articles", .fixture("articles.json"))
    let environment: [String: String?] = ["NEWS_CONFIG": file, "NEWS_COUNTS": "off"]
    let first = await harness.run(["sync"], environment: environment)
    #expect(first.code == .success, "\(first.err)")
    let fromProvider = lines("items.log").filter { $0.hasPrefix("articles|") }
    let stored = try await harness.run(
      ["headlines", "--from", "articles", "--offline", "--json"], environment: environment
    ).json()
    let count = (stored["articles"] as? [[String: Any]])?.count ?? 0
    #expect(count > 0 && fromProvider.count == count)
    _ = await harness.run(["sync"], environment: environment)
    #expect(lines("items.log").filter { $0.hasPrefix("articles|") }.count == count)
  }

  @Test("a source's first answer runs no hook: what it held is no news (as after sources import)")
  func firstAnswer() async throws {
    let log = harness.home.path("items.log")
    let base = harness.server.baseURL.absoluteString
    let off = ["a", "b", "c", "articles", "bbc"].map { #"{"name": "\#($0)", "enabled": false}"# }
    let file = try harness.home.write(
      "config.json",
      #"{"sources": [\#(off.joined(separator: ", ")), {"name": "r", "url": "\#(base)/r.xml"}], "hooks": {"newItem": "echo \"$NEWS_ITEM_ID\" >> \#(log)"}}"#
    )
    let environment: [String: String?] = ["NEWS_CONFIG": file, "NEWSAPI_KEY": nil]
    items.record("one")
    items.record("two")
    await harness.succeed(["sync"], environment: environment)
    #expect(lines("items.log").isEmpty)
    items.record("three")
    await harness.succeed(["sync", "--refresh"], environment: environment)
    #expect(lines("items.log") == ["r.example-three"])
  }

  @Test("hooks that wait all finish, the sync waiting for them, four at once and never more")
  func slowHooks() async throws {
    let running = harness.home.path("running")
    try FileManager.default.createDirectory(atPath: running, withIntermediateDirectories: true)
    let log = harness.home.path("counts.log")
    let four = harness.home.path("four")
    // Each counts the hooks running beside it (itself included), then waits until one counted
    // four (a barrier, not a pause: the first three hold until the fourth comes and opens it),
    // then leaves. Only a hook that saw four opens it, so none leaves before the fourth counted;
    // with fewer than four at once the barrier never opens and the hooks time out.
    let environment = try await config(
      #"{"newItem": "touch \#(running)/$NEWS_ITEM_ID; n=$(ls \#(running) | wc -l); echo $n >> \#(log); if [ $n -ge 4 ]; then touch \#(four); fi; until [ -e \#(four) ]; do sleep 0.01; done; rm \#(running)/$NEWS_ITEM_ID"}"#
    )
    for name in ["three", "four", "five", "six", "seven", "eight"] { items.record(name) }
    let sync = await harness.run(["sync"], environment: environment)
    #expect(sync.code == .success, "\(sync.err)")
    #expect(!sync.err.contains("hook"), "\(sync.err)")
    let counts = lines("counts.log").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    #expect(counts.count == 8)
    #expect(counts.allSatisfy { (1...4).contains($0) }, "\(counts)")
    // The fourth found the three held before it: four ran at once.
    #expect(counts.max() == 4, "\(counts)")
    // Every one ended before the sync did.
    #expect(try FileManager.default.contentsOfDirectory(atPath: running).isEmpty)
  }

  @Test("a failing hook is a warning naming it; the sync succeeds")
  func failingHook() async throws {
    let environment = try await config(#"{"newItem": "exit 3"}"#)
    let sync = await harness.run(["sync"], environment: environment)
    #expect(sync.code == .success)
    #expect(sync.err.contains("newItem hook for r.example-one failed (exit 3)"), "\(sync.err)")
  }

  @Test("a hanging hook is stopped at NEWS_HOOK_TIMEOUT, a warning; the sync succeeds")
  func hangingHook() async throws {
    let marker = harness.home.path("started")
    var environment = try await config(#"{"afterSync": "touch \#(marker); exec sleep 300"}"#)
    environment["NEWS_HOOK_TIMEOUT"] = "7"
    let sync = await harness.run(
      ["sync"], environment: environment,
      deadline: passing(.seconds(7)) { FileManager.default.fileExists(atPath: marker) })
    #expect(sync.code == .success, "\(sync.err)")
    #expect(
      sync.err.contains("afterSync hook took longer than 7 s (NEWS_HOOK_TIMEOUT) and was stopped"),
      "\(sync.err)")
  }

  @Test("newItem runs once an item, whichever command stores it first: feed, then sync (#47.1)")
  func hookAcrossCommands() async throws {
    let log = harness.home.path("items.log")
    let environment = try await config(#"{"newItem": "echo \"$NEWS_ITEM_ID\" >> \#(log)"}"#)
    let feed = await harness.run(["feed", "--refresh"], environment: environment)
    #expect(feed.code == .success, "\(feed.err)")
    #expect(lines("items.log").sorted() == ["r.example-one", "r.example-two"])
    // The sync that follows finds nothing new: no second run.
    await harness.succeed(["sync"], environment: environment)
    #expect(lines("items.log").count == 2)
    items.record("three")
    await harness.succeed(["sync"], environment: environment)
    await harness.succeed(["feed", "--refresh"], environment: environment)
    #expect(lines("items.log").sorted() == ["r.example-one", "r.example-three", "r.example-two"])
  }

  @Test(
    "sources add stores a new subscription's items without the hook, and says so; --hooks runs it")
  func subscriptionHooks() async throws {
    let log = harness.home.path("items.log")
    let environment = try await config(#"{"newItem": "echo \"$NEWS_ITEM_ID\" >> \#(log)"}"#)
    harness.server.route("/s.xml") { _ in
      .json(
        "<rss version=\"2.0\"><channel><title>S</title><item><title>Old news</title>"
          + "<link>https://s.example/1</link></item></channel></rss>")
    }
    harness.server.route("/t.xml") { _ in
      .json(
        "<rss version=\"2.0\"><channel><title>T</title><item><title>Also old</title>"
          + "<link>https://t.example/1</link></item></channel></rss>")
    }
    let base = harness.server.baseURL.absoluteString
    let added = await harness.run(["sources", "add", base + "/s.xml"], environment: environment)
    #expect(added.code == .success, "\(added.err)")
    #expect(added.out.contains("the newItem hook ran for none of its 1 item"), "\(added.out)")
    #expect(lines("items.log").isEmpty)
    await harness.succeed(["sync"], environment: environment)
    #expect(!lines("items.log").contains("s.example-1"))
    let withHooks = await harness.run(
      ["sources", "add", base + "/t.xml", "--hooks"], environment: environment)
    #expect(withHooks.code == .success, "\(withHooks.err)")
    #expect(lines("items.log").contains("t.example-1"))
  }

  @Test("an item an ignore rule hides runs no hook")
  func ignoredItem() async throws {
    let log = harness.home.path("items.log")
    let environment = try await config(
      #"{"newItem": "echo \"$NEWS_ITEM_ID\" >> \#(log)"}"#,
      extra: #", "ignore": [{"title": "two"}]"#)
    let sync = await harness.run(["sync"], environment: environment)
    #expect(sync.code == .success, "\(sync.err)")
    #expect(lines("items.log") == ["r.example-one"])
  }

  @Test("feed --new --jsonl prints only the items new in this run, for scripts")
  func feedNew() async throws {
    let environment = try await config(#"{}"#)
    let arguments = ["feed", "--source", "r", "--new", "--jsonl", "--refresh"]
    let first = await harness.run(arguments, environment: environment)
    #expect(first.code == .success, "\(first.err)")
    #expect(first.out.split(separator: "\n").count == 2)
    items.record("three")
    let second = await harness.run(arguments, environment: environment)
    let lines = second.out.split(separator: "\n")
    #expect(lines.count == 1 && lines.first?.contains("Story three") == true, "\(second.out)")
    let third = await harness.run(arguments, environment: environment)
    #expect(third.code == .success && third.out.isEmpty, "\(third.out)")
    // As text, a source with none says so.
    let text = await harness.run(
      ["feed", "--source", "r", "--new", "--refresh"], environment: environment)
    #expect(text.out.contains("Source r (fresh)\n     nothing new\n"), "\(text.out)")
  }

  @Test("a hook's background children neither hold the sync nor outlive it; no socket leaks in")
  func backgroundChildren() async throws {
    let fds = harness.home.path("fds.log")
    let pids = harness.home.path("pids.log")
    // Each run lists what its shell's descriptors are, then leaves a child sleeping in the
    // background: the sync must not wait for it, and must not leave it running.
    let environment = try await config(
      #"{"newItem": "for f in /proc/$$/fd/*; do readlink $f; done > \#(fds); sleep 30 & echo $! >> \#(pids)"}"#
    )
    let sync = await harness.run(["sync"], environment: environment)
    #expect(sync.code == .success, "\(sync.err)")
    // Its input (a pipe), /dev/null, the loop's own output, and nothing of news's: no socket,
    // no store file.
    #expect(lines("fds.log").count >= 3)
    #expect(
      lines("fds.log").allSatisfy { $0 == "/dev/null" || $0.hasPrefix("pipe:") || $0 == fds },
      "\(lines("fds.log"))")
    let children = lines("pids.log").compactMap { pid_t($0) }
    #expect(children.count == 2)
    for child in children {
      #expect(await processEnds(child), "the hook's child \(child) outlived the sync")
    }
  }

  @Test("hooks get the allow-listed variables and what hookEnv names, never a secret")
  func allowListedEnvironment() async throws {
    let envLog = harness.home.path("env.log")
    let file = try harness.home.write(
      "config.json",
      #"{"sources": [{"name": "a", "enabled": false}, {"name": "b", "enabled": false}, {"name": "c", "enabled": false}, {"name": "articles", "enabled": false}, {"name": "bbc", "enabled": false}, {"name": "r", "url": "\#(harness.server.baseURL.absoluteString)/r.xml"}], "hookEnv": ["MY_TOPIC"], "hooks": {"afterSync": "env > \#(envLog)"}}"#
    )
    var environment: [String: String?] = ["NEWS_CONFIG": file, "NEWSAPI_KEY": nil]
    let secrets = [
      "BORG_PASSPHRASE": "s1", "SSHPASS": "s2", "MYSQL_PWD": "s3",
      "DATABASE_URL": "postgres://me:s4@db.example/x", "API_CREDENTIALS": "s5",
      "AUTH_COOKIE": "s6", "PRIVATEKEY": "s7", "GPGKEY": "s8", "FEVER_PW": "s9",
      "SOMETHING_ELSE": "s10",
      // The allow-list's families and names are checked as every other variable is.
      "XDG_API_TOKEN": "s11", "LC_SECRET_KEY": "s12", "LANG": "http://u:s13@proxy.example/",
    ]
    for (name, value) in secrets { environment[name] = value }
    environment["MY_TOPIC"] = "climate"
    environment["LC_TIME"] = "C"
    let sync = await harness.run(["sync"], environment: environment)
    #expect(sync.code == .success, "\(sync.err)")
    let seen = lines("env.log")
    for (name, value) in secrets {
      #expect(!seen.contains { $0.hasPrefix(name + "=") || $0.contains(value) }, "\(name)")
    }
    #expect(seen.contains("MY_TOPIC=climate"))
    #expect(seen.contains("LC_TIME=C"))
    #expect(seen.contains { $0.hasPrefix("HOME=") })
  }
}

/// Whether process `pid` has ended (gone, or a zombie nobody reaped yet), waiting for it at most
/// ten seconds: a SIGKILL is delivered at once, but its end is the kernel's to finish.
func processEnds(_ pid: pid_t) async -> Bool {
  for _ in 0..<1_000 {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else {
      return true
    }
    if let state = stat.split(separator: ")").last?.split(separator: " ").first, state == "Z" {
      return true
    }
    try? await Task.sleep(for: .milliseconds(10))
  }
  return false
}
