import Foundation
import NewsCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `news browse`: the list and detail screens, full screen, on the same store as the commands.
enum BrowseCommand {
  static func spec(_ providers: ProviderRegistry) -> CommandSpec {
    CommandSpec(
      name: "browse",
      abstract: "Read full screen: every list, an article, reload, filter, bookmark, open.",
      discussion: """
        Opens on the home screen: every provider and feed source, one a row, with its unread
        and total items and its state, read from the store at once (nothing waits for the
        network). Enter opens a list from the store and refreshes it in the background; r
        reloads the selected row, R every row, each showing its progress. --from or --source
        opens on that list instead. In a list: j/k or arrows move, Enter reads, o opens the
        link, b bookmarks, r reloads, / filters by a query (as news search reads it: words,
        is:unread, age<2d…), Tab goes to the next list, Esc or q goes back (article, list, home,
        quit); ? lists every key. Needs a terminal (TERM=dumb
        cannot show it): in scripts use the list commands and --json.

        EXAMPLES:
          news browse
          news browse --source hn --unread
          news browse --offline
        """,
      options: [
        Options.provider(providers).spec, Options.browseSource.spec, Options.unread.spec,
        Options.offline.spec,
      ])
  }

  static func entry(_ providers: ProviderRegistry) -> CommandEntry {
    CommandEntry(
      spec: spec(providers), usesNetwork: { !$0[Options.offline] }, validate: validate, run: run)
  }

  /// `--from` or `--source`, not both: a provider whose requirement is met, a source that exists.
  static func validate(_ arguments: ParsedArguments, context: Context) throws {
    let fromOption = Options.provider(context.providers)
    if arguments[fromOption] != nil, arguments[Options.browseSource] != nil {
      throw UsageError(command: "browse", message: "--from and --source: give one")
    }
    let configuration = try context.configuration()
    if let name = arguments[fromOption], let provider = context.providers.provider(named: name),
      let missing = provider.missingRequirement(in: configuration)
    {
      throw UsageError(command: "browse", message: missing)
    }
    if let name = arguments[Options.browseSource] {
      let sources = try context.services().feedSources().map(\.name)
      guard sources.contains(name) else {
        throw UsageError.unknownSource(name, among: sources, command: "browse")
      }
    }
  }

  static func run(_ arguments: ParsedArguments, context: Context) async throws -> ExitCode {
    guard context.console.stdoutIsTerminal, isatty(STDIN_FILENO) == 1 else {
      throw BrowseError.needsTerminal
    }
    if context.environment["TERM"] == "dumb" { throw BrowseError.dumbTerminal }
    let configuration = try context.configuration()
    let services = try context.services()
    // The key is checked before the screen opens: a wrong key is exit 74, as for every command,
    // never an empty store shown.
    _ = try services.articleStore()
    _ = try services.cacheStore()
    let channels = services.channels(
      providers: context.providers, including: arguments[Options.provider(context.providers)],
      source: arguments[Options.browseSource])
    // The home screen, unless a list was named.
    var start: Int?
    if let name = arguments[Options.provider(context.providers)] {
      start = channels.firstIndex { $0.name == name } ?? 0
    } else if let name = arguments[Options.browseSource] {
      start =
        channels.firstIndex {
          if case .feed(let source) = $0 { return source.name == name }
          return false
        } ?? 0
    }
    let reader = ChannelReader(
      services: services, channels: channels,
      query: TopHeadlinesQuery(defaults: configuration.queryDefaults),
      unreadOnly: arguments[Options.unread])
    let session = BrowseSession(
      context: context, services: services, reader: reader, offline: arguments[Options.offline],
      styled: !configuration.noColor, shape: try context.settings().shape,
      depth: ColorDepth.detect(environment: context.environment))
    return await session.run(startingAt: start)
  }
}

/// Why `news browse` cannot start.
enum BrowseError: NewsError, CompleteUsageMessage {
  case needsTerminal
  case dumbTerminal

  var message: String {
    switch self {
    case .needsTerminal: "browse needs a terminal; use 'news headlines' or '--json' in scripts"
    case .dumbTerminal:
      "browse needs a terminal that can move the cursor (TERM=dumb); use 'news headlines' and 'news show'"
    }
  }

  var exitCode: ExitCode { .usage }
}
