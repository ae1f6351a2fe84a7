import FeedParsing
import Foundation
import NewsCore
import TestSupport
import Testing

@Suite("Feed items as articles, read state, news open")
struct ReadStateTests {
  let harness: Harness

  init() throws {
    harness = try Harness()
    for name in ["a", "b", "c"] {
      harness.server.route("/feed/\(name).json", .fixture("source_\(name).readme-sample.json"))
    }
    harness.server.route("/blog.xml", .fixture("feeds/rss20_1.xml"))
    harness.server.route("/atom.xml", .fixture("feeds/atom10_1.xml"))
    let base = harness.server.baseURL.absoluteString
    try FileManager.default.createDirectory(
      atPath: harness.home.path("news"), withIntermediateDirectories: true)
    _ = try harness.home.write(
      "news/config.json",
      #"{"sources":[{"name":"blog","url":"\#(base)/blog.xml"},{"name":"atom","url":"\#(base)/atom.xml"}]}"#
    )
  }

  func items(_ arguments: [String] = ["feed", "--json"]) async throws -> [[String: Any]] {
    let result = await harness.run(arguments)
    #expect(result.code == .success)
    return try #require(try result.json()["items"] as? [[String: Any]])
  }

  @Test("news feed numbers its items: show, bookmark and search work on them")
  func numbered() async throws {
    let feed = await harness.run(["feed"])
    #expect(feed.out.contains("  4. this is an item\n"))
    #expect(feed.out.contains("     http://example.com/blog/this_is_an_item.html\n"))
    let show = await harness.run(["show", "4", "--json", "--offline"])
    #expect(show.code == .success)
    let article = try show.json()
    #expect(article["title"] as? String == "this is an item")
    #expect(article["id"] as? String == "example.com-blog-this_is_an_item.html")
    #expect(article["provider"] as? String == "blog")
    #expect(article["author"] as? String == "Andreas Krennmair")
    #expect(article["read"] as? Bool == true)
    await harness.succeed(["feed"])
    #expect(await harness.run(["bookmark", "5"]).code == .success)
    let bookmarks = await harness.run(["bookmarks", "--json"])
    let bookmarked = try #require(try bookmarks.json()["articles"] as? [[String: Any]])
    #expect(bookmarked.map { $0["provider"] as? String } == ["atom"])
    let search = await harness.run(["search", "gentle", "--json"])
    let found = try #require(try search.json()["articles"] as? [[String: Any]])
    #expect(found.map { $0["title"] as? String } == ["A gentle introduction to Atom testing"])
    // Two Atom entries share one link: each keeps an id of its own.
    let atom = try await items().filter { $0["source"] as? String == "atom" }
    #expect(Set(atom.compactMap { $0["id"] as? String }).count == 3)
  }

  @Test("show marks read: read in JSON, --unread leaves it out, counts in the headers")
  func showMarksRead() async throws {
    let before = try await items()
    #expect(before.allSatisfy { $0["read"] as? Bool == false })
    await harness.succeed(["show", "2", "--offline"])
    let after = try await items()
    #expect(after.map { $0["read"] as? Bool } == [false, true] + Array(repeating: false, count: 5))
    let unread = try await items(["feed", "--json", "--unread"])
    #expect(unread.count == 6)
    #expect(!unread.contains { $0["id"] as? String == after[1]["id"] as? String })
    let text = await harness.run(["feed"])
    #expect(text.out.hasPrefix("Feed · 7 items from 5 sources · 6 unread\n"))
    #expect(text.out.contains("Source B (cached, just now)\n"))
    #expect(text.out.contains("Source atom (cached, just now, 3 unread)\n"))
    // The numbers of the last list are what was shown: with --unread, the unread ones.
    await harness.succeed(["feed", "--unread"])
    let second = await harness.run(["show", "2", "--json", "--offline"])
    #expect(try second.json()["id"] as? String == after[2]["id"] as? String)
  }

  @Test("read and unread by hand; read --all --source; read state survives a refetch")
  func readByHand() async throws {
    await harness.succeed(["feed"])
    let read = await harness.run(["read", "1", "3"])
    #expect(read.code == .success)
    #expect(read.out == "read: Interesting News!\nread: Latest article\n")
    #expect(try await items().map { $0["read"] as? Bool }.prefix(3) == [true, false, true])
    #expect(await harness.run(["unread", "1"]).out == "unread: Interesting News!\n")
    let all = await harness.run(["read", "--all", "--source", "atom"])
    #expect(all.out == "marked read: 3 articles\n")
    let refetched = try await items(["feed", "--json", "--refresh"])
    #expect(refetched.filter { $0["read"] as? Bool == true }.count == 4)
    let unknown = await harness.run(["read", "--all", "--source", "atomm"])
    #expect(unknown.code == .usage)
    #expect(unknown.err.contains("did you mean 'atom'?"))
    #expect(await harness.run(["read"]).code == .usage)
    #expect(await harness.run(["read", "1", "--all"]).code == .usage)
    #expect(await harness.run(["read", "1", "--source", "a"]).code == .usage)
    // Undone as it was done: every article of the source unread again.
    let undone = await harness.run(["unread", "--all", "--source", "atom"])
    #expect(undone.out == "marked unread: 3 articles (of 3 matching)\n", "\(undone.err)")
    let after = try await items(["feed", "--json", "--offline"])
    #expect(after.filter { $0["read"] as? Bool == true }.count == 1)
    let misplaced = await harness.run(["unread", "1", "--source", "atom"])
    #expect(misplaced.err.contains("--source only applies with --all or --where"))
  }

  @Test("--unread on headlines --offline, search and bookmarks; unread count in the header")
  func unreadLists() async throws {
    harness.server.route("/v2/top-headlines", .fixture("top-headlines-us-2022-02-17.json"))
    await harness.succeed(["headlines"])
    await harness.succeed(["read", "1", "2"])
    let offline = await harness.run(["headlines", "--offline", "--unread", "--json"])
    let articles = try #require(try offline.json()["articles"] as? [[String: Any]])
    #expect(articles.count == 18)
    #expect(articles.allSatisfy { $0["read"] as? Bool == false })
    let text = await harness.run(["headlines", "--offline"])
    #expect(text.out.hasPrefix("Top headlines · us (stored just now) · 20 of 38 · 18 unread\n"))
    await harness.succeed(["bookmark", "1", "3"])
    let bookmarks = await harness.run(["bookmarks", "--unread", "--jsonl"])
    #expect(bookmarks.out.split(separator: "\n").count == 1)
    #expect(bookmarks.out.contains(#""read":false"#))
  }

  @Test("a damaged read-marks file is named in a warning; the lists are shown and kept")
  func damagedMarks() async throws {
    harness.server.route("/v2/top-headlines", .fixture("top-headlines-us-2022-02-17.json"))
    await harness.succeed(["read", "https://example.com/a"])
    let marks = harness.home.path("news/read.enc")
    try Data(repeating: 0x41, count: 80).write(to: URL(fileURLWithPath: marks))
    for arguments in [["headlines"], ["feed"]] {
      let result = await harness.run(arguments)
      #expect(result.code == .success)
      #expect(result.err.contains("read.enc does not open, so the read marks in it are lost"))
      #expect(result.err.contains("('news doctor --repair' replaces the file)"))
      #expect(result.out.contains(" 1. "))
    }
    // Never overwritten: it is still what it was.
    #expect(try Data(contentsOf: URL(fileURLWithPath: marks)) == Data(repeating: 0x41, count: 80))
  }

  @Test("open runs $BROWSER with the link as one argument and marks the article read")
  func openWithBrowser() async throws {
    await harness.succeed(["feed"])
    let log = harness.home.path("opened.txt")
    let script = try harness.home.writeExecutable(
      "browser.sh", "#!/bin/sh\nprintf '%s\\n' \"$@\" >> \(log)\n")
    let result = await harness.run(
      ["open", "4"], environment: ["BROWSER": "/nonexistent:" + script])
    #expect(result.code == .success)
    #expect(result.out.isEmpty)
    // The command BROWSER names that cannot be found is said, not skipped in silence.
    #expect(
      result.err.contains("BROWSER names '/nonexistent', which cannot be found"), "\(result.err)")
    #expect(
      try String(contentsOfFile: log, encoding: .utf8)
        == "http://example.com/blog/this_is_an_item.html\n")
    #expect(try await items()[3]["read"] as? Bool == true)
    // %s places the link; a failing browser is exit 69.
    await harness.succeed(["feed"])
    let placed = await harness.run(
      ["open", "4"], environment: ["BROWSER": script + " --new-tab=%s"])
    #expect(placed.code == .success)
    #expect(
      try String(contentsOfFile: log, encoding: .utf8).hasSuffix(
        "--new-tab=http://example.com/blog/this_is_an_item.html\n"))
    let failing = await harness.run(["open", "4"], environment: ["BROWSER": "/bin/false"])
    #expect(failing.code == .unavailable)
    #expect(failing.err.contains("the browser '/bin/false' exited with status 1"))
  }

  @Test("open returns once the opener exits, whatever it left running (a browser it started)")
  func openerLeavesBrowserRunning() async throws {
    await harness.succeed(["feed"])
    let started = harness.home.path("browser.pid")
    // An opener as xdg-open is: it starts the browser and exits.
    let script = try harness.home.writeExecutable(
      "opener.sh",
      "#!/bin/sh\nsleep 120 </dev/null >/dev/null 2>&1 &\necho $! > \(started)\n")
    let result = await harness.run(["open", "4"], environment: ["BROWSER": script])
    #expect(result.code == .success, "\(result.err)")
    let pid = try #require(
      pid_t(
        try String(contentsOfFile: started, encoding: .utf8)
          .trimmingCharacters(in: .whitespacesAndNewlines)))
    // Still running: news did not wait for it (a descriptor it inherited kept news waiting
    // until the browser closed). It runs in news's process group, which has the terminal.
    let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
    let state = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...]
      .trimmingCharacters(in: .whitespaces).prefix(1)
    #expect(state != "Z" && state != "X", "it ended (\(state)): news waited for it")
    #expect(getpgid(pid) == getpgrp())
    kill(pid, SIGKILL)
    let ended = try harness.home.writeExecutable("ended.sh", "#!/bin/sh\nkill -TERM $$\n")
    await harness.succeed(["feed"])
    let signalled = await harness.run(["open", "4"], environment: ["BROWSER": ended])
    #expect(signalled.code == .unavailable)
    #expect(signalled.err.contains("the browser '\(ended)' was ended by signal 15"))
  }

  @Test("the browser never sees a secret: the store key, the API key, a password variable")
  func browserEnvironment() async throws {
    await harness.succeed(["feed"])
    let log = harness.home.path("environment.txt")
    let script = try harness.home.writeExecutable("browser.sh", "#!/bin/sh\nenv > \(log)\n")
    // The store's own key, given the way cron gives it.
    let key = try String(contentsOfFile: harness.home.path("news/key"), encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let result = await harness.run(
      ["open", "4"],
      environment: [
        "BROWSER": script, "NEWS_STORE_KEY": key, "READER_PASSWORD": "hunter2",
        "LANG": "C.UTF-8",
      ])
    #expect(result.code == .success, "\(result.err)")
    let seen = try String(contentsOfFile: log, encoding: .utf8)
    #expect(seen.contains("LANG=C.UTF-8"), "the rest of the environment is passed on")
    for secret in [key, "test-key-123", "hunter2"] { #expect(!seen.contains(secret)) }
  }

  @Test("open without a browser prints the link; an item without a link is exit 65")
  func openWithoutBrowser() async throws {
    await harness.succeed(["feed"])
    let printed = await harness.run(
      ["open", "5"], environment: ["PATH": harness.home.path("empty")])
    #expect(printed.code == .success)
    #expect(printed.out == "http://example.com/atom_testing.html\n")
    await harness.succeed(["feed"])
    let none = await harness.run(["open", "1"])
    #expect(none.code == .dataError)
    #expect(none.err.contains("has no http(s) link to open"))
  }
}
