import Foundation
import NewsCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The running reader: keys and answers come in as events, change the ``BrowseState``, and what
/// changed on the screen is written out. Runs only on a terminal (``RawTerminal``).
final class BrowseSession: Sendable {
  private enum Event: Sendable {
    case bytes([UInt8])
    case quiet
    case resized
    /// SIGTSTP from elsewhere: handled by the loop, never by the signal's handler, so the
    /// terminal is never given back while the loop is giving it back or taking it again.
    case stopRequested
    /// A channel's list: from the store (`final` false: an answer may follow) or an answer.
    case loaded(
      channel: Int, heading: String, freshness: String, articles: [Article], final: Bool)
    /// A channel's fetch failed; `stored` when what the store holds is shown meanwhile.
    case failed(channel: Int, String)
    /// A home row's counts and state, read from the store.
    case row(channel: Int, unread: Int?, total: Int?, status: String)
    /// A list gathering the others' items (All unread, a tag), counted again from the store.
    case gathered(channel: Int, unread: Int, total: Int)
    case counts(id: String, likes: Int?, comments: Int?)
  }

  private let context: Context
  private let services: NewsServices
  /// The lists and reading state, over the one store opened for the session (or why it cannot
  /// be opened: lists then show no read state, and marks and bookmarks say why they failed).
  private let lists: Result<ListService, any Error>
  /// The feed's sources, fetched through one transport (one limit a host for the session).
  private let feed: Result<FeedService, any Error>
  private let channels: [BrowseChannel]
  private let query: TopHeadlinesQuery
  private let offline: Bool
  private let unreadOnly: Bool
  private let renderer: BrowseRenderer
  private let styled: Bool
  private let events: AsyncStream<Event>
  private let send: AsyncStream<Event>.Continuation

  init(
    context: Context, services: NewsServices, channels: [BrowseChannel], query: TopHeadlinesQuery,
    offline: Bool, unreadOnly: Bool, styled: Bool
  ) {
    self.context = context
    self.services = services
    lists = Result { try services.lists() }
    feed = Result { try services.feed() }
    self.channels = channels
    self.query = query
    self.offline = offline
    self.unreadOnly = unreadOnly
    self.styled = styled
    renderer = BrowseRenderer(
      styled: styled, unicode: context.console.unicode, now: context.timing.now(),
      timeZone: context.timeZone)
    (events, send) = AsyncStream.makeStream(of: Event.self)
  }

  /// Runs until `q` (exit 0) or Ctrl-C (130); the terminal is restored either way. Opens on the
  /// home screen, or on the list of `channel`.
  func run(startingAt channel: Int?) async -> ExitCode {
    guard RawTerminal.enter() else { return .usage }
    defer { RawTerminal.restore() }
    startReadingKeys()
    let resize = DispatchSource.makeSignalSource(signal: SIGWINCH)
    signal(SIGWINCH, SIG_IGN)
    resize.setEventHandler { [send] in send.yield(.resized) }
    resize.resume()
    let resumed = DispatchSource.makeSignalSource(signal: SIGCONT)
    signal(SIGCONT, SIG_IGN)
    resumed.setEventHandler { [send] in send.yield(.resized) }
    resumed.resume()
    // A stop from elsewhere (`kill -TSTP`) gives the terminal back first, as Ctrl-Z does.
    let stopped = DispatchSource.makeSignalSource(signal: SIGTSTP)
    signal(SIGTSTP, SIG_IGN)
    stopped.setEventHandler { [send] in send.yield(.stopRequested) }
    stopped.resume()
    defer {
      resize.cancel()
      resumed.cancel()
      stopped.cancel()
    }

    var state = BrowseState(channels: channels.map(\.name))
    state.countsPolicy = (try? context.configuration().counts) ?? .newsapi
    // Accounts that cannot be read leave their sources out: said in the footer, not hidden.
    state.message = services.accountSourcesWarning()
    state.home = channels.map { _ in BrowseState.HomeRow(status: "…") }
    state.channelTags = channels.map {
      switch $0 {
      case .feed(let source): source.tags
      case .tag(let tag): [tag]
      default: []
      }
    }
    state.gatherers = Set(channels.indices.filter { channels[$0].gathers })
    let size = RawTerminal.size()
    state.resize(width: size.width, height: size.height)
    var decoder = KeyDecoder()
    var screen: ScreenGrid?
    var first: [BrowseEffect] = [.loadHome]
    if let channel {
      first += state.open(channel)
    } else {
      state.screen = .home
      first.append(.displayed)
    }
    draw(state, over: &screen)
    perform(first, state: &state)

    for await event in events {
      var effects: [BrowseEffect] = []
      switch event {
      case .bytes(let bytes):
        for key in decoder.feed(bytes) {
          if key == .suspend {
            RawTerminal.suspend()
            screen = nil
            continue
          }
          let keyEffects = state.handle(key)
          if keyEffects.contains(.quit) { return key == .interrupt ? .interrupted : .success }
          effects += keyEffects
        }
      case .quiet:
        for key in decoder.flush() { effects += state.handle(key) }
      case .resized:
        let size = RawTerminal.size()
        state.resize(width: size.width, height: size.height)
        screen = nil
      case .stopRequested:
        RawTerminal.suspend()
        let size = RawTerminal.size()
        state.resize(width: size.width, height: size.height)
        screen = nil
      case .loaded(let channel, let heading, let freshness, let articles, let final):
        var all = ReadingState(articles: articles, read: [], bookmarked: [])
        switch lists {
        case .success(let lists): all = lists.readingState(of: articles, unreadOnly: false)
        case .failure(let error): all.warnings = ["read state unavailable: " + Self.describe(error)]
        }
        if let warning = all.warnings.first, state.message == nil { state.message = warning }
        state.updateRow(
          channel, unread: all.articles.filter { !all.read.contains($0.id) }.count,
          total: all.articles.count, status: freshness, loading: !final)
        // The last list of a reload answered: the gathering lists are counted again.
        if final, !state.gatherers.contains(channel), !state.home.contains(where: \.loading) {
          loadHome()
        }
        guard channel == state.channel, state.screen != .home else { continue }
        effects += state.loaded(
          heading: heading, freshness: freshness,
          articles: unreadOnly ? all.articles.filter { !all.read.contains($0.id) } : all.articles,
          read: all.read, bookmarked: all.bookmarked)
        state.loading = !final
      case .failed(let channel, let reason):
        state.updateRow(
          channel, unread: nil, total: nil, status: "failed: " + reason, failed: true)
        if channel == state.channel, state.screen != .home { state.failed(reason) }
      case .gathered(let channel, let unread, let total):
        state.updateRow(channel, unread: unread, total: total, status: "stored")
      case .row(let channel, let unread, let total, let status):
        // An answer that came first is not overwritten by what the store held.
        if state.home.indices.contains(channel), state.home[channel].status == "…" {
          state.updateRow(channel, unread: unread, total: total, status: status)
        }
      case .counts(let id, let likes, let comments):
        state.counts[id] = .loaded(likes: likes, comments: comments)
      }
      perform(effects, state: &state)
      draw(state, over: &screen)
    }
    return .success
  }

  private func draw(_ state: BrowseState, over screen: inout ScreenGrid?) {
    // Ages ("5 min ago") are counted from now at every frame, not from when browse started.
    var renderer = self.renderer
    renderer.now = context.timing.now()
    let next = renderer.render(state)
    let output = ScreenDiff.ansi(from: screen, to: next, styled: styled)
    if !output.isEmpty { RawTerminal.write(output) }
    screen = next
  }

  private func perform(_ effects: [BrowseEffect], state: inout BrowseState) {
    for effect in effects {
      switch effect {
      case .load(let channel, let refresh):
        load(channel, refresh: refresh, storedFirst: true)
      case .loadHome:
        loadHome()
      case .refresh(let channels):
        for channel in channels { load(channel, refresh: true, storedFirst: false) }
      case .loadCounts(let article):
        let services = self.services
        let send = self.send
        Task {
          let counts = await services.info().counts(
            articleID: article.id, deadline: services.countsDeadline())
          send.yield(
            .counts(
              id: article.id, likes: try? counts.likes.get(), comments: try? counts.comments.get()))
        }
      case .openLink(let article, let number):
        if let number {
          let links = HTMLText.links(in: article.content ?? "")
          state.message =
            links.indices.contains(number - 1)
            ? open(article, link: links[number - 1])
            : "no link \(number) in the text (\(links.count) listed)"
        } else {
          state.message = open(article)
        }
      case .setBookmark(let article, let on):
        do {
          let warnings = try lists.get().setBookmark(article, on)
          if !warnings.isEmpty { state.message = warnings.joined(separator: "; ") }
        } catch {
          state.message = "not saved: " + Self.describe(error)
        }
      case .saveSearch(let words):
        do {
          let name = try services.subscriptions().addSearch(
            words.joined(separator: " "), name: nil)
          state.message = "saved search \(name): news feed --source \(name), here next time"
        } catch {
          state.message = "not saved: " + Self.describe(error)
        }
      case .setRead(let ids, let read):
        do {
          let warnings = try lists.get().setRead(ids, read)
          if !warnings.isEmpty { state.message = warnings.joined(separator: "; ") }
        } catch {
          state.message =
            (read ? "not marked read: " : "not marked unread: ") + Self.describe(error)
        }
      case .setSourceRead(let source, let ids):
        do {
          let warnings = try lists.get().markSourceRead(source, ids: ids).warnings
          if !warnings.isEmpty { state.message = warnings.joined(separator: "; ") }
        } catch {
          state.message = "not marked read: " + Self.describe(error)
        }
      case .markRead(let id):
        do {
          state.message = try lists.get().shown(id).warning
        } catch {
          state.message = "not marked read: " + Self.describe(error)
        }
      case .displayed:
        context.displayed()
      case .quit:
        break
      }
    }
  }

  /// Opens the link (the terminal handed over while a browser runs); returns a footer message.
  private func open(_ article: Article, link: String? = nil) -> String? {
    guard let link = link ?? article.url else { return "this article has no link" }
    let warning: String?
    do {
      warning = try lists.get().shown(article.id).warning
    } catch {
      warning = "not marked read: " + Self.describe(error)
    }
    guard let browser = Browser.find(environment: context.environment) else {
      return "link: " + TerminalSanitizer.clean(link) + (warning.map { " (\($0))" } ?? "")
    }
    RawTerminal.restore()
    defer {
      RawTerminal.reenter()
      send.yield(.resized)
    }
    do {
      try browser.open(link)
      return nil
    } catch {
      return error.message
    }
  }

  /// Loads channel `index` in the background: with `storedFirst`, what the store holds at once
  /// (no request), then, unless `--offline`, an answer (the list changes when it came).
  private func load(_ index: Int, refresh: Bool, storedFirst: Bool) {
    // A list gathering the others' items is the store's answer: there is nothing to fetch.
    let offline = self.offline || channels[index].gathers
    Task {
      if storedFirst || offline, let stored = await self.stored(index) {
        send.yield(
          .loaded(
            channel: index, heading: stored.heading, freshness: stored.freshness,
            articles: stored.articles, final: offline))
      } else if offline {
        send.yield(.failed(channel: index, "nothing stored (--offline)"))
      }
      guard !offline else { return }
      do {
        let fetched = try await answer(index, refresh: refresh, offline: false, throwing: true)
        if let fetched {
          send.yield(
            .loaded(
              channel: index, heading: fetched.heading, freshness: fetched.freshness,
              articles: fetched.articles, final: true))
        }
      } catch {
        send.yield(.failed(channel: index, Self.describe(error)))
      }
    }
  }

  /// Every row's counts and state from the store, one channel after the other (no request);
  /// the lists that gather the others' items last, All unread from what the others held.
  private func loadHome() {
    let lists = self.lists
    // A source failing run after run says its failure, not "never fetched".
    let failures = (try? feed.get())?.failures() ?? [:]
    Task {
      var unread = Set<String>()
      var tagged: [String: (unread: Set<String>, all: Set<String>)] = [:]
      for index in channels.indices where !channels[index].gathers {
        let stored: (heading: String, freshness: String, articles: [Article])?
        do {
          stored = try await answer(index, refresh: false, offline: true, throwing: true)
        } catch is OfflineError {
          stored = nil
        } catch {
          // A store that cannot be read is said as such, never taken for "never fetched".
          send.yield(
            .row(
              channel: index, unread: nil, total: nil,
              status: "unreadable: " + Self.describe(error)))
          continue
        }
        guard let stored else {
          if case .feed(let source) = channels[index], let failure = failures[source.name] {
            send.yield(.failed(channel: index, failure.error))
          } else {
            send.yield(.row(channel: index, unread: nil, total: nil, status: "never fetched"))
          }
          continue
        }
        let all = try? lists.get().readingState(of: stored.articles, unreadOnly: false)
        let unreadHere = all.map { state in
          state.articles.filter { !state.read.contains($0.id) }.map(\.id)
        }
        unread.formUnion(unreadHere ?? [])
        if case .feed(let source) = channels[index] {
          for tag in source.tags {
            tagged[tag, default: ([], [])].unread.formUnion(unreadHere ?? [])
            tagged[tag, default: ([], [])].all.formUnion(stored.articles.map(\.id))
          }
        }
        send.yield(
          .row(
            channel: index, unread: unreadHere?.count,
            total: all?.articles.count ?? stored.articles.count, status: stored.freshness))
      }
      for index in channels.indices where channels[index].gathers {
        if case .allUnread = channels[index] {
          send.yield(.gathered(channel: index, unread: unread.count, total: unread.count))
        } else if case .tag(let tag) = channels[index] {
          send.yield(
            .gathered(
              channel: index, unread: tagged[tag]?.unread.count ?? 0,
              total: tagged[tag]?.all.count ?? 0))
        } else if let stored = await self.stored(index),
          let state = try? lists.get().readingState(of: stored.articles, unreadOnly: false)
        {
          send.yield(
            .row(
              channel: index,
              unread: state.articles.filter { !state.read.contains($0.id) }.count,
              total: state.articles.count, status: "stored"))
        }
      }
    }
  }

  /// What the store holds of channel `index`, if anything (no request).
  private func stored(_ index: Int) async -> (
    heading: String, freshness: String, articles: [Article]
  )? {
    (try? await answer(index, refresh: false, offline: true)) ?? nil
  }

  /// What channel `index` answers: its heading, how fresh, its articles. `nil` when there is
  /// nothing (offline: nothing stored); a failure is thrown only with `throwing`.
  private func answer(_ index: Int, refresh: Bool, offline: Bool, throwing: Bool = false)
    async throws -> (heading: String, freshness: String, articles: [Article])?
  {
    let now = context.timing.now
    do {
      switch channels[index] {
      case .provider(let provider):
        let result = try await lists.get().headlines(
          from: provider, query: query, offline: offline, limit: nil)
        let freshness =
          result.freshness.label(fetchedAt: result.list.fetchedAt, now: now(), withReason: true)
          ?? "fresh"
        return (provider.heading(for: query), freshness, result.list.articles)
      case .feed(let source):
        let report = try await feed.get().fetch([source], refresh: refresh, offline: offline)
          .first
        guard let report, report.status != .failed else {
          if throwing, report?.neverFetched != true {
            throw BrowseFailure(message: report?.error ?? "source \(source.name) failed")
          }
          return nil
        }
        var freshness = report.status.rawValue
        if let fetchedAt = report.fetchedAt, report.status != .fresh {
          freshness += ", " + RelativeTime.describe(fetchedAt, now: now())
        }
        return (
          "Source " + source.name, freshness, report.items.map(\.article).uniquedByID()
        )
      case .bookmarks:
        return ("Bookmarks", "stored", try lists.get().bookmarks(limit: nil).list.articles)
      case .allUnread:
        var gathered: [Article] = []
        for other in channels.indices where !channels[other].gathers {
          gathered += await stored(other)?.articles ?? []
        }
        let state = try lists.get().readingState(of: gathered.uniquedByID(), unreadOnly: true)
        // Newest first across the lists (undated last), not list by list.
        let newest = state.articles.enumerated().sorted { left, right in
          let (a, b) = (left.element.publishedAt, right.element.publishedAt)
          if a != b { return (a ?? .distantPast) > (b ?? .distantPast) }
          return left.offset < right.offset
        }.map(\.element)
        return ("All unread", "stored", newest)
      case .tag(let tag):
        var gathered: [Article] = []
        for other in channels.indices {
          guard case .feed(let source) = channels[other], source.tags.contains(tag) else {
            continue
          }
          gathered += await stored(other)?.articles ?? []
        }
        return ("Tag " + tag, "stored", gathered.uniquedByID())
      }
    } catch {
      if throwing { throw error }
      return nil
    }
  }

  /// A source that failed, said as its report says it.
  private struct BrowseFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
  }

  /// Reads standard input on a thread of its own (a blocking read), handing bytes over; a lone
  /// ESC is told apart from the start of a sequence by 30 ms of quiet after it.
  private func startReadingKeys() {
    let send = self.send
    let thread = Thread {
      var buffer = [UInt8](repeating: 0, count: 256)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, 256) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else {
          send.yield(.bytes([0x03]))
          return
        }
        send.yield(.bytes(Array(buffer[0..<count])))
        if buffer[count - 1] == 0x1B {
          var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
          if poll(&descriptor, 1, 30) == 0 { send.yield(.quiet) }
        }
      }
    }
    thread.start()
  }

  private static func describe(_ error: any Error) -> String {
    (error as? any NewsError)?.message ?? String(describing: error)
  }
}
