import Foundation
import NewsCLI
import NewsCore
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `news serve` run by the command line, and `news` against `news`: one home serving, another
/// with an account on it, marks going both ways through the Google Reader API and Fever.
@Suite("news serve: the command, and news against news")
struct ServeCommandTests {
  /// `news serve` of a harness on a free loopback port, until ``stop()``.
  struct Running {
    let port: UInt16
    let task: Task<RunResult, Never>
    let stopping: AsyncStream<Void>.Continuation

    static func start(
      _ harness: Harness, _ arguments: [String] = [], hooks given: ServeHooks = ServeHooks()
    ) async throws -> Running {
      let (ports, portGiven) = AsyncStream<UInt16>.makeStream()
      let (stops, stopping) = AsyncStream<Void>.makeStream()
      var hooks = given
      hooks.listening = { portGiven.yield($0) }
      hooks.stop = {
        for await _ in stops { return }
      }
      let task = Task {
        let result = await harness.run(
          ["serve", "--listen", "127.0.0.1:0"] + arguments, serving: hooks)
        portGiven.finish()
        return result
      }
      var next = ports.makeAsyncIterator()
      guard let port = await next.next() else {
        let result = await task.value
        Issue.record("serve ended at once: \(result.code.rawValue) \(result.err)")
        throw CancellationError()
      }
      return Running(port: port, task: task, stopping: stopping)
    }

    var url: String { "http://127.0.0.1:\(port)/" }

    /// Stops it; what it printed.
    func stop() async -> RunResult {
      stopping.yield()
      return await task.value
    }
  }

  @Test("--set-password from standard input; an empty one, or contradicting options, exit 64")
  func setPassword() async throws {
    let harness = try Harness()
    let set = await harness.run(
      ["serve", "--set-password", "--user", "ann", "--fever"], stdin: ["correct horse"])
    #expect(set.code == .success, "\(set.err)")
    #expect(set.out == "news serve: apps sign in as ann; the Fever key is kept too\n")
    let empty = await harness.run(["serve", "--set-password"], stdin: [])
    #expect(empty.code == .usage && empty.err.contains("no password set: the password is empty"))
    for arguments in [
      ["serve", "--user", "ann"], ["serve", "--fever"],
      ["serve", "--set-password", "--listen", "127.0.0.1:1"], ["serve", "--refresh", "5s"],
      ["serve", "--refresh", "soon"], ["serve", "--listen", "localhost:80"],
      ["serve", "--listen", "127.0.0.1:99999"],
    ] {
      let refused = await harness.run(arguments)
      #expect(refused.code == .usage, "\(arguments): \(refused.err)")
      #expect(refused.err.split(separator: "\n").count == 1, "\(refused.err)")
    }
    // The password is nowhere in the clear.
    let files = try FileManager.default.subpathsOfDirectory(atPath: harness.home.path("news"))
    for file in files {
      let data = FileManager.default.contents(atPath: harness.home.path("news/" + file)) ?? Data()
      #expect(!String(decoding: data, as: UTF8.self).contains("correct horse"), "\(file)")
    }
  }

  @Test("beyond this machine without a password: refused with how to set one (exit 64)")
  func passwordNeeded() async throws {
    let harness = try Harness()
    let refused = await harness.run(["serve", "--listen", "0.0.0.0:8080"])
    #expect(refused.code == .usage)
    #expect(refused.err.contains("lets other machines in, and no password is set"))
    #expect(refused.err.contains("news serve --set-password --user <name>"))
  }

  @Test("a port taken: exit 69, saying so")
  func portTaken() async throws {
    let harness = try Harness()
    let port = harness.server.baseURL.port ?? 0
    let taken = await harness.run(["serve", "--listen", "127.0.0.1:\(port)"])
    #expect(taken.code == .unavailable, "\(taken.err)")
    #expect(taken.err.contains("cannot listen on 127.0.0.1:\(port): bind"))
  }

  /// A serving on a store of the demo feeds, with ann's password set.
  static func hub(fever: Bool = false) async throws -> Harness {
    let hub = try Harness()
    hub.routeDemoSources()
    await hub.succeed(["feed"])
    let set = await hub.run(
      ["serve", "--set-password", "--user", "ann"] + (fever ? ["--fever"] : []), stdin: ["pw"])
    #expect(set.code == .success, "\(set.err)")
    return hub
  }

  static func titles(_ harness: Harness, _ arguments: [String]) async throws -> Set<String> {
    let result = await harness.run(arguments + ["--json"])
    #expect(result.code == .success, "\(arguments): \(result.err)")
    let list = try result.json()
    let items = (list["items"] ?? list["articles"]) as? [[String: Any]] ?? []
    return Set(items.compactMap { $0["title"] as? String })
  }

  static func id(_ harness: Harness, of title: String, in source: String? = nil) async throws
    -> String
  {
    let result = await harness.run(
      ["search", "title:\"\(title)\""] + (source.map { ["source:" + $0] } ?? []) + ["--json"])
    let items = try result.json()["articles"] as? [[String: Any]] ?? []
    return try #require(items.first?["id"] as? String, "\(title): \(result.out) \(result.err)")
  }

  @Test(
    "news against news over the Google Reader API: feeds, marks and stars both ways, a subscription"
  )
  func googleReader() async throws {
    let hub = try await Self.hub()
    let running = try await Running.start(hub)
    let phone = try Harness()
    let added = await phone.run(
      [
        "accounts", "add", "hub", "--greader", running.url, "--user", "ann",
        "--password-env", "HUB_PASSWORD",
      ], environment: ["HUB_PASSWORD": "pw"])
    #expect(added.code == .success, "\(added.err)")
    let wrong = await phone.run(
      [
        "accounts", "add", "other", "--greader", running.url, "--user", "bob",
        "--password-env", "HUB_PASSWORD",
      ], environment: ["HUB_PASSWORD": "guess"])
    #expect(wrong.code == .permissionDenied, "\(wrong.err)")
    let synced = await phone.run(["sync", "--account", "hub"])
    #expect(synced.code == .success, "\(synced.err)")
    let served = try await Self.titles(hub, ["search", "is:unread"])
    let pulled = try await Self.titles(phone, ["search", "is:unread"])
    #expect(!served.isEmpty && pulled == served)

    // Read and starred on the phone: the hub has them after the phone's sync.
    let titles = served.sorted()
    let onPhone = try await Self.id(phone, of: titles[0])
    #expect(await phone.run(["read", onPhone]).code == .success)
    #expect(await phone.run(["bookmark", onPhone]).code == .success)
    #expect(await phone.run(["sync", "--account", "hub"]).code == .success)
    #expect(try await Self.titles(hub, ["search", "is:read"]) == [titles[0]])
    #expect(try await Self.titles(hub, ["bookmarks"]) == [titles[0]])

    // Read on the hub: the phone has it after its next sync.
    let onHub = try await Self.id(hub, of: titles[1])
    #expect(await hub.run(["read", onHub]).code == .success)
    #expect(await phone.run(["sync", "--account", "hub"]).code == .success)
    #expect(try await Self.titles(phone, ["search", "is:read"]) == [titles[0], titles[1]])

    // Subscribed from the phone: the hub fetches and keeps it, the phone's next sync has it.
    let rss =
      "<rss version=\"2.0\"><channel><title>Fresh</title><item><title>Brand new</title>"
      + "<link>https://fresh.example/1</link></item></channel></rss>"
    hub.server.route(
      "/fresh.xml",
      LoopbackServer.Response(
        headers: ["Content-Type": "application/rss+xml"], body: Data(rss.utf8)))
    let url = hub.server.baseURL.absoluteString + "/fresh.xml"
    let subscribed = await phone.run(["sources", "add", url, "--account", "hub"])
    #expect(subscribed.code == .success, "\(subscribed.err)")
    let hubSources = try #require(
      try await hub.run(["sources", "--json"]).json()["sources"] as? [[String: Any]])
    #expect(hubSources.contains { $0["url"] as? String == url })
    #expect(await phone.run(["sync", "--account", "hub"]).code == .success)
    #expect(try await Self.titles(phone, ["search", "title:brand"]) == ["Brand new"])

    let log = await running.stop()
    #expect(log.code == .success, "\(log.err)")
    #expect(log.err.contains("POST /reader/api/0/edit-tag 200"))
    #expect(log.err.contains("POST /accounts/ClientLogin 401"))
    #expect(!log.err.contains("pw&") && !log.err.contains("Passwd"))
  }

  @Test("news against news: a podcast's episodes reach the phone with their files")
  func podcastFiles() async throws {
    let hub = try await Self.hub()
    hub.server.route(
      "/pod.xml",
      LoopbackServer.Response(
        headers: ["Content-Type": "application/rss+xml"],
        body: Data(
          """
          <rss version="2.0"><channel><title>Pod</title>
          <item><title>Episode 1</title><link>https://pod.example/1</link>
          <enclosure url="https://cdn.example/1.mp3" type="audio/mpeg" length="1234"/></item>
          <item><title>Notes</title><link>https://pod.example/notes</link></item>
          </channel></rss>
          """.utf8)))
    await hub.succeed(["sources", "add", hub.server.baseURL.absoluteString + "/pod.xml"])
    let running = try await Running.start(hub)
    let phone = try Harness()
    await phone.succeed(
      [
        "accounts", "add", "hub", "--greader", running.url, "--user", "ann",
        "--password-env", "HUB_PASSWORD",
      ], environment: ["HUB_PASSWORD": "pw"])
    await phone.succeed(["sync", "--account", "hub"])
    let items = try #require(
      try await phone.run(["feed", "--source", "hub/pod", "--json"]).json()["items"]
        as? [[String: Any]])
    let episode = try #require(items.first { $0["title"] as? String == "Episode 1" })
    let files = try #require(episode["enclosures"] as? [[String: Any]])
    #expect(files.first?["url"] as? String == "https://cdn.example/1.mp3")
    #expect(files.first?["type"] as? String == "audio/mpeg")
    #expect(files.first?["length"] as? Int == 1234)
    let notes = try #require(items.first { $0["title"] as? String == "Notes" })
    #expect((notes["enclosures"] as? [Any] ?? []).isEmpty)
    #expect(await running.stop().code == .success)
  }

  @Test("news against news over Fever: items, and marks both ways")
  func fever() async throws {
    let hub = try await Self.hub(fever: true)
    let running = try await Running.start(hub)
    let phone = try Harness()
    let added = await phone.run(
      [
        "accounts", "add", "hub", "--fever", running.url + "fever/", "--user", "ann",
        "--password-env", "HUB_PASSWORD",
      ], environment: ["HUB_PASSWORD": "pw"])
    #expect(added.code == .success, "\(added.err)")
    #expect(await phone.run(["sync", "--account", "hub"]).code == .success)
    let served = try await Self.titles(hub, ["search", "is:unread"])
    let pulled = try await Self.titles(phone, ["search", "is:unread"])
    #expect(!served.isEmpty && pulled == served)
    let titles = served.sorted()
    #expect(await phone.run(["read", try await Self.id(phone, of: titles[0])]).code == .success)
    #expect(await phone.run(["sync", "--account", "hub"]).code == .success)
    #expect(try await Self.titles(hub, ["search", "is:read"]) == [titles[0]])
    #expect(await hub.run(["read", try await Self.id(hub, of: titles[1])]).code == .success)
    #expect(await phone.run(["sync", "--account", "hub"]).code == .success)
    #expect(try await Self.titles(phone, ["search", "is:read"]) == [titles[0], titles[1]])
    #expect(await running.stop().code == .success)
  }

  @Test("--refresh runs what sync runs, every interval; --quiet logs only what failed")
  func refreshAndQuiet() async throws {
    let hub = try Harness()
    hub.routeDemoSources()
    let (refreshed, roundDone) = AsyncStream<Void>.makeStream()
    let pauses = Recorder<Duration>()
    var hooks = ServeHooks()
    // The first pause passes at once; the second says the first refresh is done, then waits
    // until the server stops (its task cancelled).
    hooks.refreshPause = { duration in
      pauses.record(duration)
      guard pauses.all.count > 1 else { return }
      roundDone.yield()
      try await untilCancelled()
    }
    let running = try await Running.start(hub, ["--refresh", "30m", "--quiet"], hooks: hooks)
    var rounds = refreshed.makeAsyncIterator()
    _ = await rounds.next()
    let stored = try await Self.titles(hub, ["search", "is:unread"])
    #expect(!stored.isEmpty)
    let (info, _) = try await URLSession.shared.data(
      from: URL(string: running.url + "reader/api/0/user-info")!)
    #expect(String(decoding: info, as: UTF8.self).contains("userName"))
    _ = try await URLSession.shared.data(from: URL(string: running.url + "nothing")!)
    let log = await running.stop()
    #expect(log.code == .success)
    #expect(pauses.all == [.seconds(1_800), .seconds(1_800)])
    #expect(log.err.contains("GET /nothing 404"), "\(log.err)")
    #expect(!log.err.contains("user-info") && !log.err.contains("refreshed"), "\(log.err)")
  }

  @Test(
    "--refresh --quiet logs a source failing as it is asked, not each round it is left alone after"
  )
  func quietWhileLeftAlone() async throws {
    let hub = try Harness()
    hub.routeDemoSources()
    hub.server.route("/feed/c.json", .json("", status: 500))
    let (refreshed, roundsDone) = AsyncStream<Void>.makeStream()
    let pauses = Recorder<Duration>()
    var hooks = ServeHooks()
    // Three rounds at the same instant: c fails twice as it is asked, then is left alone.
    hooks.refreshPause = { _ in
      pauses.record(.zero)
      guard pauses.all.count > 3 else { return }
      roundsDone.yield()
      try await untilCancelled()
    }
    let running = try await Running.start(hub, ["--refresh", "30m", "--quiet"], hooks: hooks)
    var rounds = refreshed.makeAsyncIterator()
    _ = await rounds.next()
    let log = await running.stop()
    let said = log.err.components(separatedBy: "\n").filter { $0.contains("refreshed:") }
    #expect(said.count == 2 && said.allSatisfy { $0.contains("1 failed") }, "\(log.err)")
    #expect(hub.server.requests(to: "/feed/c.json").count == 8, "4 attempts, twice")
  }

  @Test(
    "16 clients at once while a sync and a read --all run: every answer 200, the counts the store's"
  )
  func clientsDuringWrites() async throws {
    let hub = try Harness()
    hub.routeDemoSources()
    await hub.succeed(["feed"])
    let running = try await Running.start(hub)
    let paths = [
      "reader/api/0/unread-count", "reader/api/0/tag/list",
      "reader/api/0/stream/items/ids?s=user/-/state/com.google/reading-list&n=100",
      "reader/api/0/stream/contents?n=20", "fever/?api&items&unread_item_ids",
    ]
    let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
      for client in 0..<16 {
        group.addTask {
          var seen: [Int] = []
          for round in 0..<10 {
            let url = URL(string: running.url + paths[(client + round) % paths.count])!
            let (_, response) = try await URLSession.shared.data(from: url)
            seen.append((response as? HTTPURLResponse)?.statusCode ?? 0)
          }
          return seen
        }
      }
      group.addTask {
        #expect(await hub.run(["sync"]).code == .success)
        return []
      }
      group.addTask {
        #expect(await hub.run(["read", "--all"]).code == .success)
        return []
      }
      var all: [Int] = []
      for try await seen in group { all += seen }
      return all
    }
    #expect(statuses.count == 160 && statuses.allSatisfy { $0 == 200 })
    let (data, _) = try await URLSession.shared.data(
      from: URL(string: running.url + "reader/api/0/unread-count")!)
    let counts =
      try #require(
        try JSONSerialization.jsonObject(with: data) as? [String: Any])["unreadcounts"]
      as? [[String: Any]]
    let readingList = counts?.first {
      $0["id"] as? String == "user/-/state/com.google/reading-list"
    }
    // What the sync brought after read --all may be unread: the server counts what the store has.
    let unread = try await hub.run(["search", "is:unread", "--json"]).json()["articles"]
    #expect(readingList?["count"] as? Int == (unread as? [[String: Any]])?.count)
    #expect(await running.stop().code == .success)
  }

  @Test("a phone's mark on an account's item is queued for that account's server, and sent")
  func accountChain() async throws {
    let hub = try Harness()
    let upstream = GoogleReaderServer(server: hub.server, user: "ann", password: "up")
    upstream.add(.init(url: "https://news.example/rss", title: "Hacker News"))
    upstream.add(
      .init(
        id: 7, feedURL: "https://news.example/rss", title: "Upstream story",
        link: "https://site.example/7", content: "<p>Body</p>", published: 1_645_116_000))
    let added = await hub.run(
      [
        "accounts", "add", "home", "--greader", upstream.url.absoluteString, "--user", "ann",
        "--password-env", "UP",
      ], environment: ["UP": "up"])
    #expect(added.code == .success, "\(added.err)")
    #expect(await hub.run(["sync", "--account", "home"]).code == .success)
    let running = try await Running.start(hub)
    let (page, _) = try await URLSession.shared.data(
      from: URL(string: running.url + "reader/api/0/stream/contents/feed/home/hacker-news")!)
    let items =
      (try JSONSerialization.jsonObject(with: page) as? [String: Any])?["items"]
      as? [[String: Any]]
    let id = try #require(items?.first { $0["title"] as? String == "Upstream story" }?["id"])
    let (token, _) = try await URLSession.shared.data(
      from: URL(string: running.url + "reader/api/0/token")!)
    var request = URLRequest(url: URL(string: running.url + "reader/api/0/edit-tag")!)
    request.httpMethod = "POST"
    request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
    let form =
      "i=\(id)&a=user/-/state/com.google/read&T="
      + String(decoding: token, as: UTF8.self).trimmingCharacters(in: .newlines)
    request.httpBody = Data(form.utf8)
    let (_, response) = try await URLSession.shared.data(for: request)
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
    let accounts = try await hub.run(["accounts", "--json"]).json()
    #expect((accounts["accounts"] as? [[String: Any]])?.first?["pendingMarks"] as? Int == 1)
    #expect(upstream.item(7)?.read == false)
    #expect(await hub.run(["sync", "--account", "home"]).code == .success)
    #expect(upstream.item(7)?.read == true)
    #expect(await running.stop().code == .success)
  }
}
