import FeedParsing
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
    /// Everything else the world tells the state.
    case world(BrowseEvent)
  }

  private let context: Context
  private let services: NewsServices
  /// Marks and bookmarks, over the one store opened for the session (or why it cannot be
  /// opened: marks and bookmarks then say why they failed).
  private let lists: Result<ListService, any Error>
  /// Every list and count shown: the channels' contents and the home rows, from NewsCore
  /// (one transport for the session: one limit a host).
  private let reader: ChannelReader
  private let offline: Bool
  private let renderer: BrowseRenderer
  private let styled: Bool
  /// Keys, commands, theme and highlights of `config.json`.
  private let shape: ReaderShape
  /// How many colours the terminal draws.
  private let depth: ColorDepth
  private let events: AsyncStream<Event>
  private let send: AsyncStream<Event>.Continuation
  /// The keys, read on a thread of their own; paused while a browser or player has the terminal.
  private let keys: KeyReader

  init(
    context: Context, services: NewsServices, reader: ChannelReader, offline: Bool, styled: Bool,
    shape: ReaderShape = ReaderShape(), depth: ColorDepth = .basic
  ) {
    self.shape = shape
    self.depth = depth
    self.context = context
    self.services = services
    lists = Result { try services.lists() }
    self.reader = reader
    self.offline = offline
    self.styled = styled
    renderer = BrowseRenderer(
      styled: styled, unicode: context.console.unicode, now: context.timing.now(),
      timeZone: context.timeZone, theme: shape.theme, highlights: shape.highlights)
    (events, send) = AsyncStream.makeStream(of: Event.self)
    keys = KeyReader(
      bytes: { [send] in send.yield(.bytes($0)) }, quiet: { [send] in send.yield(.quiet) })
  }

  /// Runs until `q` (exit 0) or Ctrl-C (130); the terminal is restored either way. Opens on the
  /// home screen, or on the list of `channel`.
  func run(startingAt channel: Int?) async -> ExitCode {
    guard RawTerminal.enter() else { return .usage }
    defer { RawTerminal.restore() }
    keys.start()
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

    let channels = reader.channels
    var state = BrowseState(channels: channels.map(\.name), timeZone: context.timeZone)
    state.keys = shape.keys
    state.countsPolicy = services.configuration.counts
    // Accounts that cannot be read leave their sources out: said in the footer, not hidden.
    state.message = services.accountSourcesWarning()?.sentence
    state.home = channels.map { _ in BrowseState.HomeRow(status: "…") }
    state.channelTags = channels.map(\.tags)
    state.gatherers = Set(channels.indices.filter { channels[$0].gathers })
    state.sources = Set(
      channels.indices.filter {
        if case .feed = channels[$0] { true } else { false }
      })
    state.searches = Set(
      channels.indices.filter {
        if case .feed(let source) = channels[$0] { source.search != nil } else { false }
      })
    state.hasHidden = !reader.hidden.isEmpty
    state.allUnreadRow = channels.firstIndex {
      if case .allUnread = $0 { true } else { false }
    }
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
    state.clampArticleScroll(last: renderer.lastArticleScroll(state))
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
          state.now = context.timing.now()
          let keyEffects = state.handle(key)
          if keyEffects.contains(.quit) { return key == .interrupt ? .interrupted : .success }
          effects += keyEffects
        }
      case .quiet:
        state.now = context.timing.now()
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
      case .world(let event):
        state.now = context.timing.now()
        effects += state.apply(event)
      }
      perform(effects, state: &state)
      state.clampArticleScroll(last: renderer.lastArticleScroll(state))
      draw(state, over: &screen)
    }
    return .success
  }

  private func draw(_ state: BrowseState, over screen: inout ScreenGrid?) {
    // Ages ("5 min ago") are counted from now at every frame, not from when browse started.
    var renderer = self.renderer
    renderer.now = context.timing.now()
    let next = renderer.render(state)
    let output = ScreenDiff.ansi(from: screen, to: next, styled: styled, depth: depth)
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
      case .reloadHidden(let then):
        reloadHidden(then: then)
      case .loadCounts(let article):
        let services = self.services
        let send = self.send
        Task {
          let counts = await services.info().counts(
            articleID: article.id, deadline: services.countsDeadline())
          let problem = [counts.likes, counts.comments].compactMap(\.failure).first?.sentence
          send.yield(
            .world(
              .counts(
                id: article.id, likes: counts.likes.success, comments: counts.comments.success,
                problem: problem)))
        }
      case .fetchFullText(let article):
        let (services, send, offline) = (self.services, self.send, self.offline)
        Task {
          do {
            let text = try await services.fullText().fullText(of: article, offline: offline)
            send.yield(.world(.fullText(id: article.id, article.showing(text), problem: nil)))
          } catch {
            send.yield(
              .world(
                .fullText(id: article.id, nil, problem: "no full text: " + Self.describe(error))))
          }
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
      case .play(let article):
        state.message = play(article)
      case .download(let article):
        download(article)
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
      case .loadKeptTexts(let ids):
        let (services, send) = (self.services, self.send)
        let listed = state.articles.filter { ids.contains($0.id) }
        Task {
          var texts: [String: Article] = [:]
          var problem: String?
          do {
            let store = try services.articleStore()
            for article in listed {
              if let text = try store.fullText(of: article.id) {
                texts[article.id] = article.showing(text)
              }
            }
          } catch {
            // The filter goes on with what the list shows: said in the footer.
            problem = "full texts not searched: " + Self.describe(error)
          }
          send.yield(.world(.keptTexts(texts, problem: problem)))
        }
      case .runCommand(let name, let article):
        let (services, send, context) = (self.services, self.send, self.context)
        guard let command = shape.commands[name] else { continue }
        Task {
          let failure = await ArticleSender.send(
            article, to: command, services: services, context: context)
          send.yield(.world(.sent(failure ?? "sent to \(name): " + article.title)))
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
    return handingOverTerminal(to: browser, link, success: nil)
  }

  /// Plays the article's first audio or video with `news play`'s player (the terminal handed
  /// over meanwhile); returns a footer message.
  private func play(_ article: Article) -> String? {
    let media: [Enclosure]
    var warning: String?
    do {
      let lists = try self.lists.get()
      media = try lists.enclosures(of: article.id).filter(\.isMedia)
      warning = media.isEmpty ? nil : lists.shown(article.id).warning
    } catch {
      return "no audio or video: " + Self.describe(error)
    }
    guard var url = media.first?.url else { return "this article carries no audio or video" }
    do {
      // The downloaded file when there is one, as news play.
      if let file = try services.downloads().file(of: url) { url = file }
    } catch {
      return "no audio or video: " + Self.describe(error)
    }
    if let missing = Browser.missingPlayer(
      services.configuration.player, environment: context.environment)
    {
      warning = "NEWS_PLAYER's '\(missing)' cannot be found"
    }
    guard
      let player = Browser.player(
        services.configuration.player, environment: context.environment)
    else {
      return "file: " + TerminalSanitizer.clean(url) + (warning.map { " (\($0))" } ?? "")
    }
    return handingOverTerminal(to: player, url, success: warning)
  }

  /// Runs `program` on `argument` with the terminal given back meanwhile (then taken again and
  /// redrawn); returns `success`, or why it failed, for the footer.
  private func handingOverTerminal(to program: Browser, _ argument: String, success: String?)
    -> String?
  {
    // Browse reads no key while the program has the terminal: each one is the program's.
    keys.pause()
    RawTerminal.restore()
    defer {
      RawTerminal.reenter()
      keys.resume()
      send.yield(.resized)
    }
    do {
      // Browse ignores SIGTSTP: a browser stopped by Ctrl-Z stops browse with it.
      try program.open(argument, followingStops: true)
      return success
    } catch {
      return error.sentence
    }
  }

  /// Downloads the article's audio and video in the background, as `news download`; the footer
  /// says how it ended.
  private func download(_ article: Article) {
    let (services, send) = (self.services, self.send)
    Task {
      do {
        let downloads = try services.downloads()
        let outcomes = await downloads.run(try downloads.jobs(for: [article], onlyNew: false))
        let names = outcomes.map { ($0.job.path as NSString).lastPathComponent }.joined(
          separator: ", ")
        if let error = outcomes.compactMap(\.error).first {
          send.yield(
            .world(
              .downloaded(id: article.id, done: false, message: "not downloaded: " + error.sentence)
            ))
        } else {
          let verb = outcomes.allSatisfy(\.job.isDone) ? "already downloaded: " : "downloaded: "
          send.yield(.world(.downloaded(id: article.id, done: true, message: verb + names)))
        }
      } catch {
        send.yield(
          .world(
            .downloaded(
              id: article.id, done: false, message: "not downloaded: " + Self.describe(error))))
      }
    }
  }

  /// Loads channel `index` in the background: with `storedFirst`, what the store holds at once
  /// (no request), then, unless `--offline`, an answer (the list changes when it came).
  private func load(_ index: Int, refresh: Bool, storedFirst: Bool) {
    // A list gathering the others' items is the store's answer: there is nothing to fetch.
    let offline = self.offline || reader.channels[index].gathers
    let (reader, send, services, context) = (self.reader, self.send, self.services, self.context)
    Task {
      if storedFirst || offline {
        do {
          if let stored = try await reader.contents(index, offline: true) {
            send.yield(.world(.loaded(channel: index, stored, final: offline)))
          } else if offline {
            send.yield(.world(.failed(channel: index, "nothing stored (--offline)")))
          }
        } catch let error as ChannelError where !offline {
          // The source's last failure: the answer that follows says how it stands now.
          _ = error
        } catch {
          send.yield(.world(.failed(channel: index, Self.describe(error))))
          if offline { return }
        }
      }
      guard !offline else { return }
      do {
        if var fetched = try await reader.contents(index, refresh: refresh, offline: false) {
          // The items this reload stored first run the newItem hook, as a sync's would.
          let new = fetched.newItems
          fetched.newItems = []
          send.yield(.world(.loaded(channel: index, fetched, final: true)))
          if !new.isEmpty {
            for warning in await NewItemHook.run(new, services: services, context: context) {
              send.yield(.world(.failed(channel: index, warning)))
            }
          }
        }
      } catch {
        send.yield(.world(.failed(channel: index, Self.describe(error))))
      }
    }
  }

  /// Fetches the hidden sources in the background (`R`), running the newItem hook on what they
  /// stored first, then says so with the rows to refresh after them. Offline, nothing is asked.
  private func reloadHidden(then rows: [Int]) {
    let (reader, send, services, context, offline) = (
      self.reader, self.send, self.services, self.context, self.offline
    )
    Task {
      var failures: [String] = []
      if !offline {
        let (new, failed) = await reader.reloadHidden()
        failures = failed
        if !new.isEmpty {
          failures += await NewItemHook.run(new, services: services, context: context)
        }
      }
      send.yield(.world(.hiddenReloaded(failures: failures, then: rows)))
    }
  }

  /// Every row's counts and state from the store (no request), as NewsCore counts them.
  private func loadHome() {
    let (reader, send) = (self.reader, self.send)
    Task {
      await reader.home { index, row in send.yield(.world(.row(channel: index, row))) }
    }
  }

  /// Reads standard input on a thread of its own (a blocking read), handing bytes over; a lone
  /// ESC is told apart from the start of a sequence by 30 ms of quiet after it.
  private static func describe(_ error: any Error) -> String {
    (error as? any NewsError)?.sentence ?? String(describing: error)
  }
}
