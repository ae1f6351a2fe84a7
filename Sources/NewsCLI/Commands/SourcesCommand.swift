import Foundation
import NewsCore

/// `news sources`: every feed source, built-in and declared, with its URL, format, time to live
/// and when it was last fetched. Reads the cache only: no request.
enum SourcesCommand {
  static let spec = CommandSpec(
    name: "sources",
    abstract: "List, add, remove, set, import and export the feed's sources.",
    discussion: """
      Without an action: the providers (newsapi, articles, bbc), the built-in sources A, B and C
      and those of config.json (a source with only a URL is a web feed: RSS, Atom or JSON Feed),
      with format, time to live and last fetch. Nothing is fetched: the last fetch is read from
      the cache. --failing lists the sources failing run after run, since when and why. set
      <provider> --disable turns a provider off as a source (only --enable and --disable apply).

      add --search <words>
                       saves a search as a source: its items are the newest stored articles
                       matching the words (as news search finds them), in news feed --source,
                       browse and JSON; nothing is fetched for it.
      add <url>        fetches <url> once: a feed is subscribed to; a web page announcing one
                       (<link rel="alternate" type="application/rss+xml">) subscribes to its
                       feed. The name comes from the feed's title unless --name is given.
      remove <name>    unsubscribes (its stored articles stay until retention drops them); an
                       account's feed (home/hacker-news) is unsubscribed on its server, and its
                       items here are forgotten.
      set <name>       changes a source's settings (built-in ones too): --ttl, --max-items
                       (keep and show at most n items), --tags (filed under; `news feed --tag`),
                       --disable (left out of feed, sync and browse) and --enable.
      import <file>    OPML 1.0/2.0 (folders become tags) or newsboat's urls file; feeds
                       subscribed already are skipped. Nothing is fetched.
      export           prints the web feeds as OPML 2.0 (newsboat -i, other readers).

      With --account <name>, add and import subscribe on that account's server (Google
      Reader API; folders of the file become its folders) and news sync brings the items.

      config.json is edited in place: the rest of the file stays as written.

      EXAMPLES:
        news sources
        news sources add https://news.ycombinator.com/rss --name hn
        news sources add https://example.com/blog --ttl 3600
        news sources add --search "climate policy" --name climate
        news sources set hn --max-items 30 --tags tech,daily
        news sources --tag tech
        news sources import ~/.newsboat/urls
        news sources export > feeds.opml
        news sources add https://example.com/feed.xml --account home
        news sources --json | jq -r '.sources[].url'
      """,
    options: [
      Options.json.spec, Options.tag.spec, Options.failing.spec, Options.sourceName.spec,
      Options.ttl.spec, Options.saveSearch.spec, Options.onAccount.spec,
    ] + Options.sourceSettings,
    arguments: [
      ArgumentSpec(
        name: "action", help: "add, remove, set, import or export.", required: false,
        choices: ["add", "remove", "set", "import", "export"]),
      ArgumentSpec(name: "value", help: "The URL, name or file of the action.", required: false),
    ])

  static let entry = CommandEntry(
    spec: spec, usesNetwork: { $0.positionals.first == "add" },
    validate: validate, run: run)

  /// Each option with the action it applies to; `--enable` or `--disable`, not both.
  static func validate(_ arguments: ParsedArguments, context: Context) throws {
    let action = arguments.positionals.first
    let applies: [(OptionSpec, [String?], String)] =
      [
        (Options.sourceName.spec, ["add"], "'add'"),
        (Options.ttl.spec, ["add", "set"], "'add' and 'set'"),
        (Options.tag.spec, [nil], "the list of sources"),
        (Options.failing.spec, [nil], "the list of sources"),
        (Options.saveSearch.spec, ["add"], "'add'"),
        (Options.onAccount.spec, ["add", "import"], "'add' and 'import'"),
      ] + Options.sourceSettings.map { ($0, ["set"], "'set'") }
    for (option, actions, what) in applies
    where arguments.contains(option) && !actions.contains(action) {
      throw UsageError(command: spec.name, message: "--\(option.name) only applies to \(what)")
    }
    if let words = arguments[Options.saveSearch] {
      if words.trimmingCharacters(in: .whitespaces).isEmpty {
        throw UsageError(command: spec.name, message: "--search needs the words to search for")
      }
      if arguments.positionals.count > 1 || arguments.contains(Options.ttl.spec) {
        throw UsageError(
          command: spec.name,
          message: "a saved search takes no URL and no --ttl: it is answered from the store")
      }
    }
    if arguments[Options.onAccount] != nil {
      for option in [Options.sourceName.spec, Options.ttl.spec, Options.saveSearch.spec]
      where arguments.contains(option) {
        throw UsageError(
          command: spec.name,
          message: "--\(option.name) does not apply with --account: the server names its feeds")
      }
    }
    if arguments[Options.enable], arguments[Options.disable] {
      throw UsageError(command: spec.name, message: "--enable and --disable contradict each other")
    }
    if action == nil {
      let sources = try context.services().feedSources()
      try UsageError.checkTag(arguments[Options.tag], among: sources, command: spec.name)
    }
  }

  static func run(_ arguments: ParsedArguments, context: Context) async throws -> ExitCode {
    let configuration = try context.configuration()
    let services = try context.services()
    let positionals = arguments.positionals
    if let action = positionals.first {
      return try await SourcesActions.run(
        action, value: positionals.count > 1 ? positionals[1] : nil, arguments: arguments,
        services: services, context: context)
    }
    let feed = try services.feed()
    if let warning = services.accountSourcesWarning() { context.warn(warning) }
    if arguments[Options.failing] {
      return failing(feed.failures(), json: arguments[Options.json], context: context)
    }
    let rows = services.feedSources().filter { source in
      arguments[Options.tag].map { source.tags.contains($0) } ?? true
    }.map { source in
      // An account's feed was last "fetched" when its account last synced.
      var last = feed.lastFetch(source)
      if source.account != nil { last.fetchedAt = source.syncedAt }
      return (source, last)
    }
    // The providers first, like sources (not filed under tags).
    let providers = arguments[Options.tag] == nil ? services.providerStatuses() : []
    if arguments[Options.json] {
      let providerRows: [JSONValue] = providers.map { provider in
        .object([
          ("name", .string(provider.name)), ("url", .string(provider.url.absoluteString)),
          ("format", .string("provider")), ("ttl", .int(nil)),
          ("status", .string(provider.fetchedAt == nil ? "never" : "fetched")),
          ("fetchedAt", .date(provider.fetchedAt)), ("error", .string(nil)),
          ("tags", .array([])), ("maxItems", .int(nil)), ("enabled", .bool(provider.enabled)),
          ("search", .string(nil)), ("account", .string(nil)),
          ("missing", .string(provider.missing)),
        ])
      }
      let document = JSONValue.object([
        ("schemaVersion", .int(ArticleJSON.schemaVersion)),
        (
          "sources",
          .array(
            providerRows
              + rows.map { source, last in
                let (fetchedAt, error) = (last.fetchedAt, last.error)
                return .object([
                  ("name", .string(source.name)), ("url", .string(source.url.absoluteString)),
                  ("format", .string(source.adapter.format)),
                  ("ttl", .int(Int(source.ttl.components.seconds))),
                  (
                    "status",
                    .string(error != nil ? "damaged" : fetchedAt == nil ? "never" : "fetched")
                  ),
                  ("fetchedAt", .date(fetchedAt)), ("error", .string(error)),
                  ("tags", .array(source.tags.map { .string($0) })),
                  ("maxItems", .int(source.maxItems)), ("enabled", .bool(source.enabled)),
                  ("search", .string(source.search)), ("account", .string(source.account)),
                ])
              })
        ),
      ])
      context.console.out(document.serialized(pretty: true) + "\n")
      return .success
    }
    let style = context.style(configuration)
    let now = context.timing.now()
    var text = style.bold("Sources") + style.dim(" · \(providers.count + rows.count)") + "\n\n"
    let width = ((rows.map(\.0.name.count) + providers.map(\.name.count)).max() ?? 0) + 2
    for provider in providers {
      var details = ["provider"]
      if let missing = provider.missing { details.append(missing) }
      if !provider.enabled { details.append("disabled") }
      details.append(
        provider.fetchedAt.map { "fetched " + RelativeTime.describe($0, now: now) }
          ?? "never fetched")
      text +=
        provider.name.padding(to: width) + TerminalSanitizer.clean(provider.url.absoluteString)
        + "\n" + String(repeating: " ", count: width)
        + style.dim(details.joined(separator: " · ")) + "\n"
    }
    for (source, last) in rows {
      let fetched: String
      if let error = last.error {
        fetched = "cache damaged: " + error
      } else if let date = last.fetchedAt {
        fetched =
          (source.account == nil ? "fetched " : "synced ") + RelativeTime.describe(date, now: now)
      } else {
        fetched = "never fetched"
      }
      var details = [
        source.account.map { "account \($0)" }
          ?? source.adapter.format + " · ttl \(Int(source.ttl.components.seconds)) s"
      ]
      if let maxItems = source.maxItems { details.append("at most \(maxItems) items") }
      if !source.tags.isEmpty {
        details.append("tags " + TerminalSanitizer.clean(source.tags.joined(separator: ", ")))
      }
      if !source.enabled { details.append("disabled") }
      let address = source.search.map { "search: " + $0 } ?? source.url.absoluteString
      text +=
        source.name.padding(to: width) + TerminalSanitizer.clean(address) + "\n"
        + String(repeating: " ", count: width)
        + style.dim((details + [fetched]).joined(separator: " · ")) + "\n"
    }
    context.console.out(text)
    return .success
  }

  /// `news sources --failing`: each source failing run after run, since when, and why.
  private static func failing(
    _ failures: [String: FeedFailures.Failure], json: Bool, context: Context
  ) -> ExitCode {
    let sorted = failures.sorted { ($0.value.since, $0.key) < ($1.value.since, $1.key) }
    if json {
      let document = JSONValue.object([
        ("schemaVersion", .int(ArticleJSON.schemaVersion)),
        (
          "failing",
          .array(
            sorted.map { name, failure in
              .object([
                ("name", .string(name)),
                ("since", .date(Date(timeIntervalSince1970: failure.since))),
                ("lastFailedAt", .date(Date(timeIntervalSince1970: failure.last))),
                ("error", .string(failure.error)),
              ])
            })
        ),
      ])
      context.console.out(document.serialized(pretty: true) + "\n")
      return .success
    }
    guard !sorted.isEmpty else {
      context.console.out("No source is failing.\n")
      return .success
    }
    let now = context.timing.now()
    for (name, failure) in sorted {
      let since = RelativeTime.describe(Date(timeIntervalSince1970: failure.since), now: now)
      context.console.out(
        "\(name)  failing since \(since): \(TerminalSanitizer.clean(failure.error))\n")
    }
    context.console.out(
      "(news sources set <name> --disable stops asking one; a run that answers clears it)\n")
    return .success
  }
}
