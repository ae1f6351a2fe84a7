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
    case loaded(channel: Int, heading: String, freshness: String, articles: [Article])
    case failed(channel: Int, String)
    case counts(id: String, likes: Int?, comments: Int?)
  }

  private let context: Context
  private let services: NewsServices
  /// The lists and reading state, over the one store opened for the session (or why it cannot
  /// be opened: lists then show no read state, and marks and bookmarks say why they failed).
  private let lists: Result<ListService, any Error>
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

  /// Runs until `q` (exit 0) or Ctrl-C (130); the terminal is restored either way.
  func run(startingAt channel: Int) async -> ExitCode {
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
    state.channel = channel
    let size = RawTerminal.size()
    state.resize(width: size.width, height: size.height)
    state.loading = true
    var decoder = KeyDecoder()
    var screen: ScreenGrid?
    draw(state, over: &screen)
    perform([.load(channel: channel, refresh: false), .displayed], state: &state)

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
      case .loaded(let channel, let heading, let freshness, let articles):
        guard channel == state.channel else { continue }
        let shown =
          (try? lists.get())?.readingState(of: articles, unreadOnly: unreadOnly)
          ?? ReadingState(articles: articles, read: [], bookmarked: [])
        state.loaded(
          heading: heading, freshness: freshness, articles: shown.articles, read: shown.read,
          bookmarked: shown.bookmarked)
      case .failed(let channel, let reason):
        if channel == state.channel { state.failed(reason) }
      case .counts(let id, let likes, let comments):
        state.counts[id] = .loaded(likes: likes, comments: comments)
      }
      perform(effects, state: &state)
      draw(state, over: &screen)
    }
    return .success
  }

  private func draw(_ state: BrowseState, over screen: inout ScreenGrid?) {
    let next = renderer.render(state)
    let output = ScreenDiff.ansi(from: screen, to: next, styled: styled)
    if !output.isEmpty { RawTerminal.write(output) }
    screen = next
  }

  private func perform(_ effects: [BrowseEffect], state: inout BrowseState) {
    for effect in effects {
      switch effect {
      case .load(let channel, let refresh):
        load(channel, refresh: refresh)
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
      case .openLink(let article):
        state.message = open(article)
      case .setBookmark(let article, let on):
        do {
          try lists.get().setBookmark(article, on)
        } catch {
          state.message = "not saved: " + Self.describe(error)
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
  private func open(_ article: Article) -> String? {
    guard let link = article.url else { return "this article has no link" }
    _ = try? lists.get().shown(article.id)
    guard let browser = Browser.find(environment: context.environment) else {
      return "link: " + TerminalSanitizer.clean(link)
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

  private func load(_ index: Int, refresh: Bool) {
    let channel = channels[index]
    let services = self.services
    let send = self.send
    let query = self.query
    let offline = self.offline
    let now = context.timing.now
    Task {
      do {
        switch channel {
        case .provider(let provider):
          let result = try await lists.get().headlines(
            from: provider, query: query, offline: offline, limit: nil)
          let freshness =
            result.freshness.label(
              fetchedAt: result.list.fetchedAt, now: now(), withReason: true) ?? "fresh"
          send.yield(
            .loaded(
              channel: index, heading: provider.heading(for: query), freshness: freshness,
              articles: result.list.articles))
        case .feed(let source):
          let report = try await services.feed().fetch(
            [source], refresh: refresh, offline: offline
          ).first
          guard let report, report.status != .failed else {
            send.yield(.failed(channel: index, report?.error ?? "source \(source.name) failed"))
            return
          }
          var freshness = report.status.rawValue
          if let fetchedAt = report.fetchedAt, report.status != .fresh {
            freshness += ", " + RelativeTime.describe(fetchedAt, now: now())
          }
          send.yield(
            .loaded(
              channel: index, heading: "Source " + source.name, freshness: freshness,
              articles: report.items.map(\.article).uniquedByID()))
        }
      } catch {
        send.yield(.failed(channel: index, Self.describe(error)))
      }
    }
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
