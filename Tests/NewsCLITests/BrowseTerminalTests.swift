import FeedParsing
import Foundation
import NewsCore
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `news browse` for real: the built binary in a pseudo-terminal against the loopback server.
@Suite("news browse in a pseudo-terminal", .serialized)
struct BrowseTerminalTests {
  let server: LoopbackServer
  let home = TemporaryDirectory()

  init() throws {
    server = try LoopbackServer()
    server.route("/articles", .fixture("articles.json"))
    server.route("/bbc.json", .fixture("headlines.json"))
    server.route(prefix: "/info/likes/") { _ in .json(#"{"likes": 14}"#) }
    server.route(prefix: "/info/comments/") { _ in .json(#"{"comments": 5}"#) }
  }

  /// A running `news browse` on the slave side of a pseudo-terminal. Its waits block a thread of
  /// their own (``onOwnThread(_:)``); a test awaits each before its next call, hence
  /// `@unchecked Sendable`.
  final class Session: @unchecked Sendable {
    /// How long a wait lasts at most: a bound for a broken run, not a timing margin (a busy
    /// machine running a sanitized build never comes near it in a run that works).
    static let bound: TimeInterval = 60

    let process: Spawned
    var master: Int32 = -1
    var slave: Int32 = -1
    var output = ""
    private var checked = 0
    /// The screen as a terminal shows it (the diff writes changed cells only).
    var screen = VirtualScreen(width: 100, height: 24)
    /// The output the screen was fed up to.
    private var fed = 0
    /// The terminal's modes before the program started.
    private(set) var initial: (local: tcflag_t, input: tcflag_t) = (0, 0)

    /// With `controlling`, the pseudo-terminal is the program's controlling terminal and the
    /// program in its foreground process group, as a shell runs it (util-linux's `setsid -w -c`,
    /// which waits for it and exits with its status): only then does a process of another group
    /// stop when it reads the terminal.
    init(arguments: [String], environment: [String: String], controlling: Bool = false) throws {
      var size = winsize(ws_row: 24, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
      guard openpty(&master, &slave, nil, nil, &size) == 0 else { throw POSIXError(.ENXIO) }
      var tcattributes = termios()
      tcgetattr(slave, &tcattributes)
      initial = (tcattributes.c_lflag, tcattributes.c_iflag)
      process = try Spawned(
        controlling ? URL(fileURLWithPath: BrowseTerminalTests.setsid) : BinaryTests.binary,
        arguments: controlling ? ["-w", "-c", BinaryTests.binary.path] + arguments : arguments,
        environment: environment.merging(SanitizerOptions.inherited) { $1 },
        // Where a coverage build's default.profraw goes: not the repository.
        directory: URL(fileURLWithPath: environment["HOME"] ?? NSTemporaryDirectory()),
        input: .descriptor(slave), output: .descriptor(slave), errors: .descriptor(slave))
    }

    deinit {
      process.kill(SIGTERM)
      close(master)
      close(slave)
    }

    /// Reads the screen until text containing `marker` arrives after what was already checked,
    /// or the screen shows it once drawn anew; fails the test if it never does (``bound``).
    func wait(for marker: String, sourceLocation: SourceLocation = #_sourceLocation) async {
      if await !onOwnThread({ self.readScreen(until: marker) }) {
        Issue.record(
          "never saw \(marker.debugDescription); the screen:\n\(screen.text)",
          sourceLocation: sourceLocation)
      }
    }

    /// Whether `marker` arrived within ``bound`` (see ``wait(for:sourceLocation:)``).
    private func readScreen(until marker: String) -> Bool {
      let deadline = Date().addingTimeInterval(Self.bound)
      while Date() < deadline {
        var drawn = false
        if output.count > fed {
          screen.feed(String(output.dropFirst(fed)))
          fed = output.count
          drawn = true
        }
        if let range = output.range(
          of: marker, range: output.index(output.startIndex, offsetBy: checked)..<output.endIndex)
        {
          checked = output.distance(from: output.startIndex, to: range.upperBound)
          return true
        }
        if drawn, screen.text.contains(marker) {
          checked = output.count
          return true
        }
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 100) > 0 else {
          if !process.isRunning { break }
          continue
        }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = read(master, &buffer, buffer.count)
        if count > 0 { output += String(decoding: buffer[0..<count], as: UTF8.self) }
      }
      return false
    }

    func send(_ text: String) {
      var bytes = Array(text.utf8)
      _ = write(master, &bytes, bytes.count)
    }

    /// Waits until the program is stopped (its state in `/proc` is `T`): a SIGCONT sent before
    /// it has stopped itself would be lost, and it would stay stopped.
    func waitUntilStopped(_ pid: pid_t? = nil, sourceLocation: SourceLocation = #_sourceLocation)
      async
    {
      let path = "/proc/\(pid ?? process.pid)/stat"
      if await !onOwnThread({ Self.stopped(path) }) {
        Issue.record("the program never stopped", sourceLocation: sourceLocation)
      }
    }

    /// Whether the process of `/proc/…/stat` at `path` stopped within ``bound``.
    private static func stopped(_ path: String) -> Bool {
      let deadline = Date().addingTimeInterval(Self.bound)
      while Date() < deadline {
        // `pid (name) S …`: the state follows the closing parenthesis.
        if let stat = try? String(contentsOfFile: path, encoding: .utf8),
          let close = stat.lastIndex(of: ")"),
          stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("T")
        {
          return true
        }
        usleep(1000)
      }
      return false
    }

    /// The slave's terminal modes (what the program must restore).
    func modes() -> (local: tcflag_t, input: tcflag_t) {
      var modes = termios()
      tcgetattr(slave, &modes)
      return (modes.c_lflag, modes.c_iflag)
    }

    /// Waits for the program to end, reading what it still wrote; one that has not ended after
    /// ``bound`` is killed and fails the test, rather than hang the suite.
    func finish(sourceLocation: SourceLocation = #_sourceLocation) async -> Int32 {
      if await !onOwnThread({ self.ended() }) {
        Issue.record("the program did not end", sourceLocation: sourceLocation)
      }
      return await process.status
    }

    /// Whether the program ended within ``bound`` (killed, with its terminal's foreground group, when
    /// not), reading what it still wrote.
    private func ended() -> Bool {
      // Its end is waited for on a thread of its own, the only one reaping it; this one waits
      // for that thread, up to the bound.
      let reaped = DispatchSemaphore(value: 0)
      Thread.detachNewThread { [process] in
        _ = process.waitBlocking()
        reaped.signal()
      }
      let ended = reaped.wait(timeout: .now() + Self.bound) == .success
      if !ended {
        // The terminal's foreground group too: with `controlling`, the program is setsid's child.
        let group = tcgetpgrp(master)
        if group > 0 { kill(-group, SIGKILL) }
        // Not `process.kill`, whose check reaps: the thread above is the one that does.
        kill(-process.pid, SIGKILL)
        reaped.wait()
      }
      var buffer = [UInt8](repeating: 0, count: 65536)
      var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
      while poll(&descriptor, 1, 0) > 0, descriptor.revents & Int16(POLLIN) != 0 {
        let count = read(master, &buffer, buffer.count)
        guard count > 0 else { break }
        output += String(decoding: buffer[0..<count], as: UTF8.self)
      }
      return ended
    }
  }

  var environment: [String: String] {
    [
      "HOME": home.url.path, "NEWS_HOME": home.path("news"), "NEWS_ANALYTICS": "off",
      "NEWS_ARTICLES_URL": server.baseURL.absoluteString + "/articles",
      // Every list on the loopback server: R reloads BBC's too.
      "NEWS_BBC_URL": server.baseURL.absoluteString + "/bbc.json",
      "NEWS_INFO_URL": server.baseURL.absoluteString + "/info", "TERM": "xterm-256color",
      "LANG": "C.UTF-8", "SWIFT_BACKTRACE": "enable=no", "NEWS_COUNTS": "all",
    ]
  }

  /// The environment of a home subscribed to one RSS feed, `source`, served with `feed` as
  /// `/<source>.xml` (no likes and comments asked).
  func subscribe(_ source: String, to feed: String) throws -> [String: String] {
    server.route(
      "/\(source).xml",
      LoopbackServer.Response(
        headers: ["Content-Type": "application/rss+xml"], body: Data(feed.utf8)))
    try FileManager.default.createDirectory(
      atPath: home.path("news"), withIntermediateDirectories: true)
    let url = "\(server.baseURL.absoluteString)/\(source).xml"
    try Data(#"{"sources": [{"name": "\#(source)", "url": "\#(url)"}]}"#.utf8).write(
      to: URL(fileURLWithPath: home.path("news/config.json")))
    var environment = self.environment
    environment["NEWS_COUNTS"] = "off"
    return environment
  }

  /// util-linux's `setsid`, which gives a program a terminal of its own (``Session``).
  static let setsid = "/usr/bin/setsid"
  /// The tests that need it.
  static let withSetsid = ConditionTrait.enabled(
    if: FileManager.default.isExecutableFile(atPath: setsid),
    "needs util-linux's setsid, to give news a controlling terminal")

  /// `news browse` of a feed of one linked item with `browser` as `$BROWSER`, news in the
  /// terminal's foreground group (a shell's job), once the item is on the screen.
  func browsingLinkedItem(browser: String) async throws -> Session {
    let feed = """
      <rss version="2.0"><channel><title>Example</title><item><title>Bike lanes</title>\
      <link>https://example.com/bike-lanes</link></item></channel></rss>
      """
    var environment = try subscribe("ex", to: feed)
    environment["BROWSER"] = browser
    let session = try Session(
      arguments: ["browse", "--source", "ex"], environment: environment, controlling: true)
    await session.wait(for: "Bike lanes")
    return session
  }

  /// A browser that uses the terminal, as w3m does: it says which signals it starts ignoring
  /// (`SigIgn` of `/proc/<pid>/status`), then reads a line from the terminal and says it.
  func terminalBrowser() throws -> String {
    try home.writeExecutable(
      "reader.sh",
      """
      #!/bin/sh
      grep SigIgn /proc/$$/status
      printf 'type: '
      read line
      echo "got $line for $1"

      """)
  }

  /// Whether `signal` is among those the `SigIgn:` line in `output` says are ignored.
  static func ignores(_ signal: Int32, in output: String) throws -> Bool {
    let line = try #require(
      output.split(whereSeparator: \.isNewline).first { $0.contains("SigIgn:") })
    let mask = try #require(
      UInt64(
        line.split(separator: ":")[1].trimmingCharacters(in: .whitespacesAndNewlines),
        radix: 16))
    return mask & (1 << UInt64(signal - 1)) != 0
  }

  @Test(
    "news open hands the terminal to a terminal browser: it reads a line, its signals at their defaults",
    withSetsid)
  func openTerminalBrowser() async throws {
    var environment = self.environment
    environment["BROWSER"] = try terminalBrowser()
    let session = try Session(
      arguments: ["open", "https://example.com/story"], environment: environment,
      controlling: true)
    // Started in a process group of its own, it stopped here (SIGTTIN) and news waited for ever.
    await session.wait(for: "type: ")
    session.send("hello\n")
    await session.wait(for: "got hello for https://example.com/story")
    #expect(await session.finish() == 0)
    // news ignores SIGINT and SIGQUIT while the browser has the terminal; the browser does not.
    for signal in [SIGINT, SIGQUIT, SIGPIPE] {
      #expect(try !Self.ignores(signal, in: session.output), "signal \(signal)")
    }
  }

  @Test(
    "o in browse: a terminal browser gets the terminal, then the list is drawn again",
    withSetsid)
  func browseTerminalBrowser() async throws {
    let session = try await browsingLinkedItem(browser: try terminalBrowser())
    session.send("o")
    await session.wait(for: "type: ")
    session.send("hello\n")
    await session.wait(for: "got hello for https://example.com/bike-lanes")
    // The screen is taken again and drawn anew.
    await session.wait(for: "\u{1B}[?1049h")
    await session.wait(for: "Bike lanes")
    session.send("qqq")
    #expect(await session.finish() == 0)
    // What browse ignores for itself (Ctrl-Z, resizes, SIGCONT) is the browser's to act on.
    for signal in [SIGTSTP, SIGWINCH, SIGCONT, SIGINT] {
      #expect(try !Self.ignores(signal, in: session.output), "signal \(signal)")
    }
  }

  @Test(
    "Ctrl-Z in a browser browse started stops browse too (the shell's prompt back); fg goes on",
    withSetsid)
  func browserStopped() async throws {
    // A browser the user stops (Ctrl-Z), then reads a line once continued. SIGSTOP, as the
    // stop of SIGTSTP is discarded here: news's group has no parent in the session (setsid's).
    let script = try home.writeExecutable(
      "stopping.sh", "#!/bin/sh\nkill -STOP $$\nprintf 'type: '\nread line\necho \"got $line\"\n")
    let session = try await browsingLinkedItem(browser: script)
    let news = tcgetpgrp(session.master)
    try #require(news > 0)
    session.send("o")
    // Browse ignores SIGTSTP for itself: without following its browser it waited for ever.
    await session.waitUntilStopped(news)
    // fg: the terminal's group continued.
    kill(-news, SIGCONT)
    await session.wait(for: "type: ")
    session.send("hello\n")
    await session.wait(for: "got hello")
    await session.wait(for: "Bike lanes")
    session.send("qqq")
    #expect(await session.finish() == 0)
  }

  /// `news browse --from articles` once its list is on the screen.
  func browsing() async throws -> Session {
    let session = try Session(
      arguments: ["browse", "--from", "articles"], environment: environment)
    await session.wait(for: "· fresh")
    return session
  }

  @Test("list, article with its counts, back, quit: exit 0 and the terminal as it was")
  func readAndQuit() async throws {
    let session = try Session(
      arguments: ["browse", "--from", "articles"], environment: environment)
    let before = session.initial
    await session.wait(for: "\u{1B}[?1049h")
    // The list once the provider answered.
    await session.wait(for: "· fresh")
    await session.wait(for: "1. ")
    session.send("j\r")
    await session.wait(for: "Link:")
    await session.wait(for: "14")
    session.send("\u{1B}")
    await session.wait(for: "j/k move")
    session.send("qq")
    #expect(await session.finish() == 0)
    #expect(session.output.hasSuffix("\u{1B}[?1049l"))
    let after = session.modes()
    #expect(after.local == before.local && after.input == before.input)
    #expect(server.unexpectedRequests.isEmpty)
  }

  @Test(
    "f on an article: its full text fetched in the background, shown, kept; f again: the feed's")
  func fullText() async throws {
    server.route(
      "/story.html",
      LoopbackServer.Response(
        headers: ["Content-Type": "text/html"], body: Fixtures.data("pages/news-story.html")))
    let feed = """
      <rss version="2.0"><channel><title>Example</title><item><title>Bike lanes</title>\
      <link>\(server.baseURL.absoluteString)/story.html</link><description>Short summary.</description>\
      </item></channel></rss>
      """
    let environment = try subscribe("ex", to: feed)
    let session = try Session(arguments: ["browse", "--source", "ex"], environment: environment)
    await session.wait(for: "Bike lanes")
    session.send("\r")
    await session.wait(for: "Short summary.")
    session.send("f")
    await session.wait(for: "protected bike lanes across")
    session.send("f")
    await session.wait(for: "what the feed carries")
    session.send("qqq")
    #expect(await session.finish() == 0)
    #expect(server.requests(to: "/story.html").count == 1)
  }

  @Test("d on a podcast episode: downloaded in the background, said in the footer, marked ↓")
  func download() async throws {
    let episode = Data((0..<64_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    server.route("/ep.mp3") { .file(episode, for: $0) }
    let base = server.baseURL.absoluteString
    let feed = """
      <rss version="2.0"><channel><title>Cast</title><item><title>Pilot</title>\
      <link>\(base)/pilot</link><enclosure url="\(base)/ep.mp3" type="audio/mpeg"/>\
      </item></channel></rss>
      """
    var environment = try subscribe("cast", to: feed)
    environment["NEWS_DOWNLOAD_DIR"] = home.path("pods")
    let session = try Session(arguments: ["browse", "--source", "cast"], environment: environment)
    await session.wait(for: "Pilot ♪")
    session.send("d")
    await session.wait(for: "downloaded: undated Pilot.mp3")
    // The list marks it (only the new cell is drawn; nothing else on this screen draws "↓").
    #expect(session.output.contains("↓"))
    session.send("qq")
    #expect(await session.finish() == 0)
    #expect(
      FileManager.default.contents(atPath: home.path("pods/cast/undated Pilot.mp3")) == episode)
  }

  @Test("Ctrl-C is exit 130 and SIGTERM 143, the terminal restored both times")
  func interrupted() async throws {
    let session = try await browsing()
    let before = session.initial
    session.send("\u{03}")
    #expect(await session.finish() == 130)
    #expect(session.output.hasSuffix("\u{1B}[?1049l"))
    #expect(session.modes().local == before.local)

    let terminated = try Session(
      arguments: ["browse", "--from", "articles", "--offline"], environment: environment)
    await terminated.wait(for: "· stored")
    terminated.process.kill(SIGTERM)
    #expect(await terminated.finish() == 143)
    #expect(terminated.output.contains("\u{1B}[?1049l"))
    #expect(terminated.modes().local == before.local)
  }

  @Test(
    "Ctrl-Z, or a SIGTSTP from elsewhere, gives the terminal back and stops; fg draws it again",
    arguments: [false, true])
  func suspendAndResume(signalled: Bool) async throws {
    let session = try await browsing()
    let before = session.initial
    if signalled {
      // Handled by the reader's loop, like the key: never while it is taking the terminal.
      session.process.kill(SIGTSTP)
    } else {
      session.send("\u{1A}")
    }
    await session.wait(for: "\u{1B}[?1049l")
    // Stopped, with the terminal as it was.
    #expect(session.modes().local == before.local)
    await session.waitUntilStopped()
    session.process.kill(SIGCONT)
    await session.wait(for: "\u{1B}[?1049h")
    await session.wait(for: "1. ")
    session.send("qq")
    #expect(await session.finish() == 0)
    #expect(session.modes().local == before.local)
  }

  /// Runs `news` (not on a terminal) in the session's home and decodes its JSON output.
  func json(_ arguments: [String]) async throws -> [String: Any] {
    let (code, out, _) = try await BinaryTests().run(
      arguments + ["--json"], environment: environment)
    #expect(code == 0)
    return try #require(
      try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
  }

  @Test(
    "b bookmarks, Enter marks read, o answers in the footer: each reaches the store; --unread hides"
  )
  func effectsReachTheStore() async throws {
    let session = try await browsing()
    session.send("b")
    session.send("j\r")
    await session.wait(for: "Link:")
    session.send("o")
    // The articles API gives no links: the footer says so.
    await session.wait(for: "this article has no link")
    // A then u: every article read, then unread again; the store ends as it was.
    session.send("\u{1B}A")
    await session.wait(for: "(u undoes)")
    session.send("u")
    await session.wait(for: "unread again")
    // s saves the filter's words as a saved search, in config.json.
    session.send("/climate\r")
    session.send("s")
    await session.wait(for: "saved search climate")
    session.send("qq")
    #expect(await session.finish() == 0)
    let list = try #require(
      try await json(["headlines", "--from", "articles", "--offline"])["articles"]
        as? [[String: Any]])
    #expect(list.prefix(3).map { $0["read"] as? Bool } == [false, true, false])
    let bookmarks = try #require(try await json(["bookmarks"])["articles"] as? [[String: Any]])
    #expect(bookmarks.map { $0["id"] as? String } == [list[0]["id"] as? String])
    let sources = try #require(try await json(["sources"])["sources"] as? [[String: Any]])
    #expect(sources.contains { $0["search"] as? String == "climate" })

    let unread = try Session(
      arguments: ["browse", "--from", "articles", "--unread", "--offline"],
      environment: environment)
    let first = try #require(list[0]["title"] as? String)
    await unread.wait(for: String(first.prefix(20)))
    unread.send("qq")
    #expect(await unread.finish() == 0)
    let second = try #require(list[1]["title"] as? String)
    #expect(!unread.output.contains(String(second.prefix(20))))
    #expect(server.unexpectedRequests.isEmpty)
  }

  @Test("--source opens a feed source's channel, with its items and its state")
  func feedChannel() async throws {
    server.route("/feed/a.json", .fixture("source_a.readme-sample.json"))
    var environment = self.environment
    environment["NEWS_FEED_A_URL"] = server.baseURL.absoluteString + "/feed/a.json"
    let session = try Session(arguments: ["browse", "--source", "a"], environment: environment)
    await session.wait(for: "Source a")
    await session.wait(for: "Interesting News!")
    session.send("qq")
    #expect(await session.finish() == 0)
    #expect(server.requests(to: "/feed/a.json").count == 1)
  }

  /// The built-in sources a, b and c answered by the loopback server, and the environment
  /// pointing at them.
  func builtInFeeds() -> [String: String] {
    var environment = self.environment
    for name in ["a", "b", "c"] {
      server.route("/feed/\(name).json", .fixture("source_\(name).readme-sample.json"))
      environment["NEWS_FEED_\(name.uppercased())_URL"] =
        server.baseURL.absoluteString + "/feed/\(name).json"
    }
    return environment
  }

  @Test("home: a cache that cannot be read is said so, never taken for \"never fetched\"")
  func unreadableRow() async throws {
    let environment = builtInFeeds()
    let (code, _, _) = try await BinaryTests().run(["feed"], environment: environment)
    #expect(code == 0)
    let cache = try #require(
      FileManager.default.enumerator(atPath: home.path(""))?.compactMap { $0 as? String }
        .first { $0.hasSuffix("feeds.enc") })
    let bundles = try damageFeedCacheBundles(
      in: URL(fileURLWithPath: home.path(cache)).deletingLastPathComponent())
    #expect(!bundles.isEmpty)
    let session = try Session(arguments: ["browse", "--offline"], environment: environment)
    await session.wait(for: "unreadable")
    session.send("q")
    #expect(await session.finish() == 0)
  }

  @Test("home: every row's counts from the store at once; keys answered while a source hangs")
  func homeWithAHangingSource() async throws {
    var environment = builtInFeeds()
    environment["NEWS_FEED_B_TTL"] = "0"
    let (code, _, _) = try await BinaryTests().run(["feed"], environment: environment)
    #expect(code == 0)
    // From now on source b never answers.
    let asked = DispatchSemaphore(value: 0)
    let server = self.server
    let hold = server.hold
    server.route("/feed/b.json") { _ in
      asked.signal()
      hold()
      return .json("{}")
    }
    let session = try Session(arguments: ["browse"], environment: environment)
    await session.wait(for: "news")
    // Counts from the store, before any answer: b's item is there although b hangs; the lists
    // gathering the others' items first and last.
    // The rows are on the screen from the first frame (a wait looks only at what came after
    // the one before: on a busy machine the home screen may come in one write).
    await session.wait(for: "1/1")
    #expect(session.screen.text.contains("All unread"))
    #expect(session.screen.text.contains("Bookmarks"))
    session.send("R")
    await session.wait(for: "loading")
    // "loading" is drawn as the request starts: it is waited for until it reached the server
    // (``Session/bound`` at most, then the count below fails).
    #expect(
      await onOwnThread { asked.wait(timeout: .now() + Session.bound) } == .success,
      "the reload reached the server")
    // Keys answered while b hangs: down to b (all unread, articles, bbc, a, b), open its list
    // from the store.
    session.send("jjjj\r")
    await session.wait(for: "Source b")
    await session.wait(for: "WOW")
    session.send("q")
    await session.wait(for: "t tag")
    session.send("?")
    await session.wait(for: "reload every list")
    session.send("x")
    session.send("q")
    #expect(await session.finish() == 0)
    #expect(server.requests(to: "/feed/b.json").count >= 2)
    #expect(server.unexpectedRequests.isEmpty)
  }

  @Test("R fetches a hidden source: its tag's row and a saved search over it count its items")
  func reloadHidden() async throws {
    let feed = """
      <rss version="2.0"><channel><title>Quiet</title>
      <item><title>A storm at sea</title><link>https://quiet.example/1</link></item>
      <item><title>Calm days</title><link>https://quiet.example/2</link></item>
      </channel></rss>
      """
    var environment = try subscribe("quiet", to: feed)
    let url = "\(server.baseURL.absoluteString)/quiet.xml"
    let off = ["a", "b", "c", "articles", "bbc"].map { #"{"name": "\#($0)", "enabled": false}"# }
    let sources =
      off + [
        #"{"name": "quiet", "url": "\#(url)", "tags": ["kept"], "hidden": true}"#,
        #"{"name": "storms", "search": "storm"}"#,
      ]
    try Data(#"{"sources": [\#(sources.joined(separator: ", "))]}"#.utf8).write(
      to: URL(fileURLWithPath: home.path("news/config.json")))
    environment["NEWS_COUNTS"] = "off"
    let session = try Session(arguments: ["browse"], environment: environment)
    await session.wait(for: "#kept")
    #expect(server.requests(to: "/quiet.xml").isEmpty, "nothing fetched to draw the home screen")
    session.send("R")
    // The tag's row counts both items, the saved search (answered before the tags are counted
    // again) the one it matches.
    await session.wait(for: "2/2")
    let rows = session.screen.text.split(separator: "\n")
    #expect(rows.first { $0.contains("storms") }?.contains("1/1") == true)
    #expect(rows.first { $0.contains("#kept") }?.contains("2/2") == true)
    #expect(!session.screen.text.contains("quiet"), "a hidden source has no row")
    session.send("q")
    #expect(await session.finish() == 0)
    #expect(server.requests(to: "/quiet.xml").count == 1)
    #expect(server.unexpectedRequests.isEmpty)
  }

  @Test("home with 200 sources of which 20 hang: counts from the store first, every key answered")
  func twoHundredSources() async throws {
    let hanging = Mutex(false)
    let hung = DispatchSemaphore(value: 0)
    let server = self.server
    let hold = server.hold
    server.route(prefix: "/many/") { request in
      let number = Int(request.path.dropFirst("/many/".count).prefix { $0.isNumber }) ?? 0
      if number >= 180, hanging.withLock({ $0 }) {
        hung.signal()
        hold()
        return .json("{}")
      }
      let body = """
        <?xml version="1.0"?><rss version="2.0"><channel><title>Feed \(number)</title>
        <item><title>Story of feed \(number)</title><link>https://s\(number).example/1</link>
        </item></channel></rss>
        """
      return LoopbackServer.Response(
        status: 200, headers: ["Content-Type": "application/rss+xml"], body: Data(body.utf8))
    }
    var environment = builtInFeeds()
    let outlines = (0..<200).map { number in
      #"<outline type="rss" text="Feed \#(number)" xmlUrl="\#(server.baseURL.absoluteString)/many/\#(number).xml"/>"#
    }
    let opml = try home.write(
      "feeds.opml",
      #"<?xml version="1.0"?><opml version="2.0"><body><outline text="Tech">"#
        + outlines.prefix(10).joined() + "</outline>" + outlines.dropFirst(10).joined()
        + "</body></opml>")
    #expect(
      try await BinaryTests().run(["sources", "import", opml], environment: environment).0 == 0)
    let feed = try await json(["feed"])
    let unread = try #require(feed["items"] as? [[String: Any]]).count
    #expect(unread >= 200)
    hanging.withLock { $0 = true }
    let requests = server.requests.count
    // Twenty hosts that hang, not twenty requests holding one host's slots: on 127.0.0.1 every
    // source shares a host, so its limits are raised to what twenty hosts would leave free.
    environment["NEWS_HOST_CONCURRENCY"] = "64"
    environment["NEWS_CONCURRENCY"] = "64"

    let session = try Session(arguments: ["browse"], environment: environment)
    // Every row's counts from the store before any answer: All unread gathers all of them.
    await session.wait(for: "\(unread)/\(unread)")
    #expect(server.requests.count == requests, "nothing fetched to draw the home screen")
    // The twenty that hang reloaded (the last twenty rows, above Bookmarks): every key is
    // answered all the while, and a hanging list opens from the store at once.
    session.send("G")
    // A list a tag, gathering its sources' items, above Bookmarks.
    await session.wait(for: "#Tech")
    await session.wait(for: "10/10")
    await session.wait(for: "Bookmarks")
    session.send("k")
    session.send(String(repeating: "kr", count: 20))
    await session.wait(for: "loading 20…")
    // "loading" is drawn as the requests start: each is waited for until it has reached the
    // server (``Session/bound`` each at most, then the count below fails).
    for _ in 0..<20 {
      guard await onOwnThread({ hung.wait(timeout: .now() + Session.bound) }) == .success else {
        Issue.record("a reload never reached the server")
        break
      }
    }
    session.send("\r")
    await session.wait(for: "Story of feed 180")
    session.send("q")
    await session.wait(for: "t tag")
    session.send("?")
    await session.wait(for: "reload every list")
    session.send("x")
    session.send("gq")
    #expect(await session.finish() == 0)
    let reloaded = server.requests.dropFirst(requests).map(\.path)
    #expect(reloaded.count == 20 && reloaded.allSatisfy { $0.hasPrefix("/many/1") })
    #expect(server.unexpectedRequests.isEmpty)
  }

  @Test("^C at the password prompt gives the terminal its echo back (exit 130)")
  func interruptedPasswordPrompt() async throws {
    let session = try Session(
      arguments: [
        "accounts", "add", "home", "--greader", server.baseURL.absoluteString + "/gr", "--user",
        "ann",
      ], environment: environment)
    let before = session.initial
    // The prompt is written once echo is off: seeing it, the signal comes while it waits.
    await session.wait(for: "Password for ann")
    #expect(session.modes().local & tcflag_t(ECHO) == 0)
    session.process.kill(SIGINT)
    #expect(await session.finish() == 130)
    #expect(session.modes().local == before.local, "echo is back")
    #expect(server.requests.isEmpty)
  }

  @Test("a wrong key is exit 74 before the screen opens, never an empty store shown")
  func wrongKey() async throws {
    var keyed = environment
    keyed["NEWS_STORE_KEY"] = Data(repeating: 1, count: 32).base64EncodedString()
    let first = try Session(arguments: ["bookmarks"], environment: keyed)
    #expect(await first.finish() == 0)
    keyed["NEWS_STORE_KEY"] = Data(repeating: 2, count: 32).base64EncodedString()
    let session = try Session(arguments: ["browse", "--offline"], environment: keyed)
    #expect(await session.finish() == 74)
    #expect(session.output.contains("the store key does not open"), "\(session.output)")
    #expect(!session.output.contains("\u{1B}[?1049h"))
  }

  @Test("TERM=dumb refuses with a message; without a terminal it is exit 64, said in one line")
  func refused() async throws {
    var dumb = environment
    dumb["TERM"] = "dumb"
    let session = try Session(arguments: ["browse"], environment: dumb)
    #expect(await session.finish() == 64)
    #expect(session.output.contains("browse needs a terminal that can move the cursor (TERM=dumb)"))
    #expect(!session.output.contains("\u{1B}[?1049h"))

    let harness = try Harness()
    let piped = await harness.run(["browse"])
    #expect(piped.code == .usage)
    #expect(
      piped.err == "news: browse needs a terminal; use 'news headlines' or '--json' in scripts\n")
  }
}
