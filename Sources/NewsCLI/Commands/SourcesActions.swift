import FeedParsing
import Foundation
import NewsCore

/// `news sources add|remove|set|import|export`: one typed subcommand each.
enum SourcesActions {
  static let entries = [add, remove, set, importing, export]

  static let add = CommandEntry(
    spec: CommandSpec(
      name: "sources add", abstract: "Subscribes to a feed, or saves a search as a source.",
      discussion: """
        Fetches <url> once: a feed is subscribed to; a web page announcing one (<link
        rel="alternate" type="application/rss+xml">) subscribes to its feed. The name comes from
        the feed's title unless --name is given. With --search <query> (and no URL), saves a
        search as a source: its items are the newest stored articles the query matches (as
        news search finds them: docs/queries.md), in news feed --source, browse (a query list on
        the home screen, with its unread count) and JSON; nothing is fetched for
        it. With --account <name>, subscribes on that account's server (any kind but Fever) and
        news sync brings the items. With --exec <command> (and no URL), the source's feed is
        what the command prints (RSS, Atom, JSON Feed); with --filter <command>, the feed at
        <url> goes through the command before it is read: newsboat's exec: and filter:, run as
        hooks run (/bin/sh -c, the hooks' variables only, NEWS_HOOK_TIMEOUT). Nothing is run
        or fetched until the next news feed or news sync. With --items <selector>, a page with
        no feed is read as one: each element selected is an item, its title, link, date and
        text read by --title, --link, --date and --content (selectors as "extract" takes them;
        selector@attribute reads an attribute); --dry-run prints what the page gives.
        --tags, --max-items, --feed-title, --full-text and --hide write those settings into the
        new source's entry, as news sources set would.

        EXAMPLES:
          news sources add https://news.ycombinator.com/rss --name hn --tags tech,daily
          news sources add --search "climate policy" --name climate
          news sources add --search 'is:unread tag:tech age<7d' --name fresh-tech
          news sources add https://example.com/feed.xml --account home
          news sources add --exec '~/bin/site-to-rss.sh' --name site
          news sources add https://example.com/feed.xml --filter 'xsltproc fix.xsl -'
          news sources add https://example.com/news --items article --title h2 \\
            --date time@datetime --dry-run
        """,
      options: [
        Options.sourceName.spec, Options.ttl.spec, Options.saveSearch.spec,
        Options.execCommand.spec, Options.filterCommand.spec,
        Options.onAccount.spec, Options.runHooks.spec,
      ] + Options.newSourceSettings + Options.pageSelectors.map(\.option.spec) + [
        Options.pageDateFormat.spec, Options.pageDryRun.spec,
      ],
      arguments: [
        ArgumentSpec(
          name: "url", help: "The feed, or a page announcing one (not with --search).",
          required: false)
      ]),
    usesNetwork: { $0[Options.saveSearch] == nil && $0[Options.execCommand] == nil },
    validate: validateAdd, run: runAdd)

  static let remove = CommandEntry(
    spec: CommandSpec(
      name: "sources remove", abstract: "Unsubscribes (its stored articles stay).",
      discussion: """
        Its stored articles stay until retention drops them; with --forget they go now (its
        bookmarks and read marks stay), and a name no longer subscribed forgets what it left.
        An account's feed (home/hacker-news) is unsubscribed on its server, and its items here
        are forgotten.

        EXAMPLES:
          news sources remove hn
          news sources remove old-blog --forget
        """,
      options: [Options.forget.spec],
      arguments: [ArgumentSpec(name: "name", help: "The source's name.", completes: .sources)]),
    run: { arguments, context in
      let services = try context.services()
      try services.checkKey()
      let name = try arguments.argument("name")
      let forget = arguments[Options.forget]
      // Removed before: what it left is still forgotten.
      let leftBehind = try forget && services.articleStore().providers().contains(name)
      let unsubscribed: Bool?
      do {
        unsubscribed = try await services.removeSource(name)
      } catch SubscriptionError.unknownSource where leftBehind {
        unsubscribed = nil
      }
      let forgotten = forget ? try services.articleStore().forget(providers: [name]) : nil
      // Its record of failures goes with it: a source added later under the name starts afresh.
      try services.feed().forgetFailures(of: name)
      context.printer.line(
        SourcesText.removed(name, unsubscribed: unsubscribed, forgotten: forgotten))
      return .success
    })

  static let set = CommandEntry(
    spec: CommandSpec(
      name: "sources set", abstract: "Changes a source's settings (built-in ones too).",
      discussion: """
        --ttl, --max-items (keep and show at most n items), --tags (filed under; news feed
        --tag; "none" clears them), --feed-title (what an OPML export and the apps of news serve
        call it; "" gives the name back), --url (where a feed that moved is now: its articles and
        read state stay), --disable (left out of feed, sync and browse) and --enable,
        --full-text (show and browse show its articles' full text; feed and sync extract it for
        new items) and --no-full-text, --hide (left out of the plain feed and browse's home
        screen, still synced, searched and in --tag lists: newsboat's !) and --show.
        A provider (newsapi, articles, bbc) takes only --enable and --disable.

        EXAMPLES:
          news sources set hn --max-items 30 --tags tech,daily
          news sources set hn --feed-title "Hacker News"
          news sources set lwn --url https://lwn.net/headlines/newrss
          news sources set bbc --disable
          news sources set hn --full-text
          news sources set noisy --hide
        """,
      options: [Options.ttl.spec] + Options.sourceSettings,
      arguments: [ArgumentSpec(name: "name", help: "The source's name.", completes: .sources)]),
    run: { arguments, context in
      if arguments[Options.enable], arguments[Options.disable] {
        throw UsageError(
          command: "sources set", message: "--enable and --disable contradict each other")
      }
      if arguments[Options.fullTextOn], arguments[Options.fullTextOff] {
        throw UsageError(
          command: "sources set", message: "--full-text and --no-full-text contradict each other")
      }
      if arguments[Options.hide], arguments[Options.show] {
        throw UsageError(command: "sources set", message: "--hide and --show contradict each other")
      }
      let settings = SourceSettings(
        ttl: arguments[Options.ttl], maxItems: arguments[Options.maxItems],
        tags: arguments[Options.tags].map { $0 == ["none"] ? [] : $0 },
        enabled: arguments[Options.enable] ? true : arguments[Options.disable] ? false : nil,
        fullText: arguments[Options.fullTextOn]
          ? true : arguments[Options.fullTextOff] ? false : nil,
        hidden: arguments[Options.hide] ? true : arguments[Options.show] ? false : nil,
        title: arguments[Options.feedTitle],
        url: try arguments[Options.sourceURL].map { try webURL($0, command: "sources set") })
      guard settings != SourceSettings() else {
        throw UsageError(
          command: "sources set",
          message:
            "'set' needs a setting: --ttl, --max-items, --tags, --feed-title, --url, --enable, "
            + "--disable, --full-text or --hide")
      }
      let services = try context.services()
      try services.checkKey()
      let name = try arguments.argument("name")
      try services.subscriptions().set(name, settings)
      // Moved: asked at its next run, whatever its old address did.
      if settings.url != nil { try services.feed().forgetFailures(of: name) }
      context.printer.line(SourcesText.set(name))
      return .success
    })

  static let importing = CommandEntry(
    spec: CommandSpec(
      name: "sources import", abstract: "Subscribes to the feeds of an OPML or newsboat file.",
      discussion: """
        OPML 1.0/2.0 (folders become tags) or newsboat's urls file; feeds subscribed already are
        skipped. The file may be - (standard input) or an http(s) address, which is fetched;
        the feeds are not. With --account <name>, subscribes on that account's server (folders
        of the file become its folders).

        EXAMPLES:
          news sources import ~/.newsboat/urls
          news sources import https://example.com/blogroll.opml
          other-reader --export-opml | news sources import -
          news sources import feeds.opml --account home
        """,
      options: [Options.onAccount.spec],
      arguments: [
        ArgumentSpec(name: "file", help: "The OPML or urls file (- for standard input, or a URL).")
      ]),
    run: { arguments, context in
      let services = try context.services()
      try services.checkKey()
      let path = try arguments.argument("file")
      let data = try await listData(path, services: services, context: context)
      if let account = arguments[Options.onAccount] {
        let feeds = try accountFeeds(data, from: path, context: context)
        return try await subscribe(feeds, on: account, services: services, context: context)
      }
      return try importFile(
        data, path: path, services.subscriptions(), demoSources: services.demoSourcesOn(),
        context: context)
    })

  /// The list `sources import` reads: a file, standard input (`-`), or one published at an
  /// http(s) address.
  private static func listData(_ path: String, services: NewsServices, context: Context)
    async throws -> Data
  {
    if path.contains("://"), let url = URL.web(path) {
      return try await services.subscriptions().download(url)
    }
    guard path == "-" else {
      return try SubscriptionFile.read(path, relativeTo: context.currentDirectory)
    }
    var text = ""
    while let line = context.readStandardInput() {
      text += line + "\n"
      guard text.utf8.count <= SubscriptionFile.maximumSize else {
        throw SubscriptionError.badImport(
          path: path,
          detail:
            "it is larger than \(SubscriptionFile.maximumSize >> 20) MiB: not a list of subscriptions"
        )
      }
    }
    return Data(text.utf8)
  }

  static let export = CommandEntry(
    spec: CommandSpec(
      name: "sources export",
      abstract: "Prints the web feeds as OPML 2.0 (newsboat -i, other readers)."),
    run: { _, context in
      let services = try context.services()
      // The key first: with a wrong one, nothing is exported.
      try services.checkKey()
      // A feed imported as a bare address is named by its own title once fetched.
      let sources = services.describedFeedSources()
      context.printer.text(services.subscriptions().export(sources))
      for warning in ExportText.warnings(sources) { context.warn(warning) }
      return .success
    })

  /// A saved search takes no URL and no --ttl; an account names its own feeds.
  static func validateAdd(_ arguments: ParsedArguments, context: Context) throws {
    let command = add.spec.name
    if let words = arguments[Options.saveSearch] {
      if words.trimmingCharacters(in: .whitespaces).isEmpty {
        throw UsageError(command: command, message: "--search needs a query (docs/queries.md)")
      }
      _ = try ArticleQuery(words, timeZone: context.timeZone)
      if !arguments.positionals.isEmpty || arguments.contains(Options.ttl.spec) {
        throw UsageError(
          command: command,
          message: "a saved search takes no URL and no --ttl: it is answered from the store")
      }
    } else if let exec = arguments[Options.execCommand] {
      if exec.trimmingCharacters(in: .whitespaces).isEmpty {
        throw UsageError(command: command, message: "--exec needs a command")
      }
      if !arguments.positionals.isEmpty || arguments[Options.filterCommand] != nil {
        throw UsageError(
          command: command, message: "--exec takes no URL and no --filter: its command is the feed")
      }
    } else if arguments.positionals.isEmpty {
      throw UsageError(command: command, message: "missing <url> after 'add'")
    }
    if let filter = arguments[Options.filterCommand],
      filter.trimmingCharacters(in: .whitespaces).isEmpty
    {
      throw UsageError(command: command, message: "--filter needs a command")
    }
    let commands = [Options.execCommand, Options.filterCommand].filter { arguments[$0] != nil }
    for option in commands.map(\.spec) {
      for other in [Options.saveSearch.spec, Options.onAccount.spec] where arguments.contains(other)
      {
        throw UsageError(
          command: command, message: "--\(option.name) and --\(other.name) contradict")
      }
    }
    if arguments[Options.onAccount] != nil {
      for option in [Options.sourceName.spec, Options.ttl.spec, Options.saveSearch.spec]
      where arguments.contains(option) {
        throw UsageError(
          command: command,
          message: "--\(option.name) does not apply with --account: the server names its feeds")
      }
      for option in Options.newSourceSettings where arguments.contains(option) {
        throw UsageError(
          command: command,
          message: "--\(option.name) does not apply with --account: its server keeps the feed's "
            + "settings (folders are its tags)")
      }
    }
    let pageOptions = Options.pageSelectors.map(\.option) + [Options.pageDateFormat]
    let given = pageOptions.filter { arguments[$0] != nil }.map(\.spec.name)
    if arguments[Options.pageItems] == nil {
      if let first = given.first ?? (arguments[Options.pageDryRun] ? "dry-run" : nil) {
        throw UsageError(
          command: command, message: "--\(first) reads a page: it needs --items <selector>")
      }
    } else {
      for other in [
        Options.saveSearch.spec, Options.onAccount.spec, Options.execCommand.spec,
        Options.filterCommand.spec,
      ] where arguments.contains(other) {
        throw UsageError(command: command, message: "--items and --\(other.name) contradict")
      }
      _ = try pageSelectors(arguments)
    }
    if let text = arguments.optionalArgument("url") { _ = try webURL(text) }
  }

  /// What `add --tags …` writes into the new source's entry, as `set` would.
  static func newSettings(_ arguments: ParsedArguments) -> SourceSettings {
    SourceSettings(
      maxItems: arguments[Options.maxItems],
      tags: arguments[Options.tags].map { $0 == ["none"] ? [] : $0 },
      fullText: arguments[Options.fullTextOn] ? true : nil,
      hidden: arguments[Options.hide] ? true : nil, title: arguments[Options.feedTitle])
  }

  /// The selectors of `--items` and the rest, each checked.
  static func pageSelectors(_ arguments: ParsedArguments) throws(UsageError) -> PageSelectors? {
    var fields: [String: PageSelectors.Field] = [:]
    for (key, option) in Options.pageSelectors {
      guard let text = arguments[option] else { continue }
      do {
        fields[key] = try PageSelectors.Field(text)
      } catch {
        throw UsageError(
          command: add.spec.name,
          message: "--\(option.spec.name) '\(TerminalSanitizer.clean(text))' \(error.detail)")
      }
    }
    guard let items = fields["items"] else { return nil }
    return PageSelectors(
      items: items, title: fields["title"], link: fields["link"], date: fields["date"],
      content: fields["content"], dateFormat: arguments[Options.pageDateFormat])
  }

  /// `text` as an http(s) URL (an address without a scheme as `https://`, ``typedAddress(_:)``),
  /// or the one usage error every subcommand gives.
  static func webURL(_ text: String, command: String = add.spec.name) throws(UsageError) -> URL {
    guard let url = URL.feed(text) ?? typedAddress(text) else {
      throw UsageError(
        command: command,
        message: "'\(TerminalSanitizer.clean(text))' is not an http:// or https:// URL")
    }
    return url
  }

  /// An address typed as into a browser, without its scheme (`example.com`, `lwn.net/headlines/rss`,
  /// `localhost:8080/feed`), as `https://…`; `nil` for anything else. A host must have a dot or be
  /// `localhost`, and a name that ends as a file does (`feed.xml`, `subs.opml`) is not one: a
  /// file of feeds is `news sources import`'s.
  static func typedAddress(_ text: String) -> URL? {
    let written = text.trimmingCharacters(in: .whitespaces)
    guard !written.contains("://"), let first = written.first, first.isLetter || first.isNumber
    else { return nil }
    let authority = written.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    let host = authority.prefix { $0 != ":" }.lowercased()
    let fileEndings: Set = ["xml", "rss", "atom", "json", "opml", "txt", "html", "htm"]
    guard host == "localhost" || host.contains("."),
      let last = host.split(separator: ".").last, !fileEndings.contains(String(last))
    else { return nil }
    return URL.web("https://" + written)
  }

  @Sendable static func runAdd(_ arguments: ParsedArguments, context: Context) async throws
    -> ExitCode
  {
    let services = try context.services()
    // The key first: with a wrong one, nothing is fetched or written.
    try services.checkKey()
    let subscriptions = services.subscriptions()
    if let words = arguments[Options.saveSearch] {
      let name = try subscriptions.addSearch(
        words, name: arguments[Options.sourceName], settings: newSettings(arguments))
      context.printer.line(SourcesText.addedSearch(name, words: words))
      return .success
    }
    if let exec = arguments[Options.execCommand] {
      let name = try subscriptions.addCommand(
        SourceCommand(kind: .exec, command: exec), url: nil, name: arguments[Options.sourceName],
        settings: newSettings(arguments))
      context.printer.line(SourcesText.addedCommand(name, "exec: " + exec))
      return .success
    }
    let url = try webURL(try arguments.argument("url"))
    if let filter = arguments[Options.filterCommand] {
      let name = try subscriptions.addCommand(
        SourceCommand(kind: .filter, command: filter), url: url,
        name: arguments[Options.sourceName], settings: newSettings(arguments))
      context.printer.line(
        SourcesText.addedCommand(
          name, "filter: " + filter + " " + url.withoutPassword.absoluteString))
      return .success
    }
    if let account = arguments[Options.onAccount] {
      return try await subscribe([(url, nil)], on: account, services: services, context: context)
    }
    if let selectors = try pageSelectors(arguments) {
      return try await addPage(
        url, selectors: selectors, arguments: arguments, services: services, context: context)
    }
    return try await add(url, arguments: arguments, subscriptions, context: context)
  }

  private static func add(
    _ url: URL, arguments: ParsedArguments, _ subscriptions: SubscriptionService,
    context: Context
  ) async throws -> ExitCode {
    let spinner = Spinner(
      line: context.statusLine, unicode: context.console.unicode, pause: context.timing.limit)
    spinner.start("fetching \(url.host ?? url.absoluteString)…")
    let added: SubscriptionService.Added
    do {
      added = try await subscriptions.add(
        url, name: arguments[Options.sourceName], ttl: arguments[Options.ttl],
        settings: newSettings(arguments))
      await spinner.stop()
    } catch {
      await spinner.stop()
      throw error
    }
    return try await keep(
      added, arguments: arguments, services: try context.services(), context: context)
  }

  /// What a new source's first answer gave, kept as a refresh keeps it (listed, searchable,
  /// "fetched" at once), and said.
  private static func keep(
    _ added: SubscriptionService.Added, arguments: ParsedArguments, services: NewsServices,
    context: Context
  ) async throws -> ExitCode {
    var hookSkipped: Int?
    if let report = try await services.keep(added) {
      for warning in report.warnings { context.warn(warning) }
      if let problem = report.notKept ?? report.error { context.warn(problem) }
      // A new subscription's items are no news: the newItem hook runs for them only when asked
      // (--hooks); the ledger then keeps any later run from running it again.
      let items = report.unpackedItems
      if services.hooks.newItem != nil, !items.isEmpty, !added.existed {
        if arguments[Options.runHooks] {
          for warning in await NewItemHook.run(items, services: services, context: context) {
            context.warn(warning)
          }
        } else {
          hookSkipped = items.count
        }
      }
    }
    context.printer.lines(SourcesText.added(added, hookSkipped: hookSkipped))
    // Subscribed already, its entry is left as it is: the settings given are not written.
    if added.existed, newSettings(arguments) != SourceSettings() {
      context.printer.line(SourcesText.settingsLeft(added.name))
    }
    return .success
  }

  /// `add <url> --items …`: the page read once; with --dry-run its items printed, else added
  /// and kept as a feed's first answer is.
  private static func addPage(
    _ url: URL, selectors: PageSelectors, arguments: ParsedArguments, services: NewsServices,
    context: Context
  ) async throws -> ExitCode {
    let dryRun = arguments[Options.pageDryRun]
    let page = try await services.subscriptions().addPage(
      url, selectors: selectors, name: arguments[Options.sourceName], ttl: arguments[Options.ttl],
      settings: newSettings(arguments), dryRun: dryRun)
    for note in page.notes { context.warn(note) }
    if dryRun {
      context.printer.lines(SourcesText.pagePreview(page, timeZone: context.timeZone))
      return .success
    }
    return try await keep(page.added, arguments: arguments, services: services, context: context)
  }

  /// The feeds of an OPML or urls file, each with its first folder, for an account.
  private static func accountFeeds(_ data: Data, from path: String, context: Context) throws
    -> [(url: URL, folder: String?)]
  {
    let parsed: (subscriptions: [Subscription], skipped: [String])
    do {
      parsed = try SubscriptionFile.parse(data)
    } catch {
      throw SubscriptionError.importing(path, error)
    }
    for skipped in parsed.skipped { context.warn("\(path): \(skipped); skipped") }
    return parsed.subscriptions.map { ($0.url, $0.tags.first) }
  }

  /// `add <url> --account` and `import <file> --account`: subscriptions on the server.
  private static func subscribe(
    _ feeds: [(url: URL, folder: String?)], on account: String, services: NewsServices,
    context: Context
  ) async throws -> ExitCode {
    let accounts = try services.accounts()
    _ = try accounts.account(account)
    var subscribed = 0
    let sources = try await accounts.subscribe(account, feeds: feeds) { url, already in
      if let already {
        context.printer.line(SourcesText.alreadySubscribed(already, url))
      } else {
        context.printer.line(SourcesText.subscribed(on: account, url))
        subscribed += 1
      }
    }
    if subscribed > 0 { context.printer.line(SourcesText.syncBrings(account, sources: sources)) }
    return .success
  }

  /// Imports the file at `path`; when it added sources while the demo sources (`demoSources`)
  /// are on, says how to turn them off.
  private static func importFile(
    _ data: Data, path: String, _ subscriptions: SubscriptionService, demoSources: [String],
    context: Context
  ) throws -> ExitCode {
    let imported = try subscriptions.importFile(data, path: path)
    for skipped in imported.skipped { context.warn("\(path): \(skipped); skipped") }
    context.printer.lines(
      SourcesText.imported(imported.added, existing: imported.existing)
        + (imported.added.isEmpty || demoSources.isEmpty
          ? [] : [ImportText.demoLine(demoSources)]))
    return .success
  }
}
