import FeedParsing
import Foundation
import NewsCore

/// `news download <id|n>…`: audio and video enclosures (podcast episodes) into files.
enum DownloadCommand {
  static let spec = CommandSpec(
    name: "download",
    abstract: "Download items' audio and video (podcast episodes), resumably.",
    discussion: """
      Files go to NEWS_DOWNLOAD_DIR (default: the XDG download directory, else ~/Downloads),
      named by NEWS_DOWNLOAD_NAME (default {source}/{date} {title}.{ext}), NEWS_DOWNLOAD_CONCURRENCY
      at once (3), none larger than NEWS_DOWNLOAD_MAX (4G). A file arrives as <name>.part and
      takes its name once whole; an interrupted download (a lost connection, Ctrl-C, a kill)
      continues from its part with a byte range the next time. On a terminal each file has a
      progress bar; otherwise a line is printed as each one ends. What was downloaded is
      remembered: news play plays the file, and --new skips it.

      Without ids, --source (or --new alone: every source) takes the newest --limit items with
      audio or video of each source.

      EXAMPLES:
        news download 3
        news download --source mypodcast --new
        news sync && news download --new --limit 2
      """,
    options: [
      Options.downloadNew.spec, Options.downloadSource.spec, Options.downloadLimit.spec,
      Options.downloadDirectory.spec, Options.json.spec,
    ],
    arguments: [ArticleArguments.several(required: false)])

  static let entry = CommandEntry(spec: spec, validate: validate, run: run)

  private static func validate(_ arguments: ParsedArguments, context: Context) throws {
    let positionals = !arguments.positionals.isEmpty
    guard positionals || arguments[Options.downloadSource] != nil || arguments[Options.downloadNew]
    else {
      throw UsageError(command: "download", message: "missing <id> (or --source, or --new)")
    }
    if positionals, arguments[Options.downloadLimit] != nil {
      throw UsageError(command: "download", message: "--limit only applies without ids")
    }
  }

  static func run(_ arguments: ParsedArguments, context: Context) async throws -> ExitCode {
    let services = try context.services()
    let downloads = try services.downloads()
    let articles = try chosenArticles(arguments, services: services, downloads: downloads)
    let directory = arguments[Options.downloadDirectory].map { path in
      // `--dir=~/x` reaches us unexpanded: `~/` is the home directory, as the shell means it.
      let home = context.environment["HOME"] ?? NSHomeDirectory()
      let expanded = path.hasPrefix("~/") ? home + path.dropFirst() : path
      return URL(
        fileURLWithPath: expanded, isDirectory: true,
        relativeTo: context.currentDirectory)
    }
    let jobs = try downloads.jobs(
      for: articles, onlyNew: arguments[Options.downloadNew], directory: directory)
    if jobs.isEmpty, !arguments.positionals.isEmpty, !arguments[Options.downloadNew] {
      throw OpenError.noMedia(id: articles.first?.id ?? "")
    }
    let json = arguments[Options.json]
    let bars = ProgressBars(console: context.console)
    let drawsBars = !json && context.statusLine.isEnabled
    let progress = DownloadProgress()
    let ticker = drawsBars ? tick(bars, progress: progress, context: context) : nil
    let outcomes = await downloads.run(jobs, progress: progress) { outcome in
      if let error = outcome.error {
        // Said on standard error with --json too (the JSON has it as "error").
        bars.print("")
        context.warn(error.sentence)
      } else {
        if let warning = outcome.warning {
          bars.print("")
          context.warn(warning)
        }
        if !json { bars.print(line(outcome) + "\n") }
      }
    }
    ticker?.cancel()
    await ticker?.value
    if drawsBars { bars.clear() }
    if json {
      context.printer.json(DownloadJSON.json(outcomes))
    } else if jobs.isEmpty {
      context.printer.line(ArticleActionText.nothingToDownload)
    }
    let failure = outcomes.lazy.compactMap(\.error).first
    return failure?.exitCode ?? .success
  }

  /// The articles the arguments name: the ids, else the newest with media of `--source` (or,
  /// with `--new` alone, of every feed source).
  private static func chosenArticles(
    _ arguments: ParsedArguments, services: NewsServices, downloads: DownloadService
  ) throws -> [Article] {
    if !arguments.positionals.isEmpty {
      // Through the one resolver every command uses (ids, list numbers, prefixes, URLs).
      let lists = try services.lists()
      let named = try lists.articles(arguments.positionals)
      return arguments[Options.downloadSource].map { name in named.filter { $0.provider == name } }
        ?? named
    }
    let names = services.feedSources().map(\.name)
    if let name = arguments[Options.downloadSource] {
      let known = services.providers.providers.map(\.name) + names
      guard known.contains(name) else {
        throw UsageError.unknownSource(name, among: known, command: "download")
      }
      return try downloads.latestWithMedia(
        sources: [name], limit: arguments[Options.downloadLimit] ?? 5)
    }
    return try downloads.latestWithMedia(
      sources: names, limit: arguments[Options.downloadLimit] ?? 5)
  }

  /// Redraws the bars five times a second until cancelled.
  private static func tick(_ bars: ProgressBars, progress: DownloadProgress, context: Context)
    -> Task<Void, Never>
  {
    let width = context.console.width
    let unicode = context.console.unicode
    let timing = context.timing
    return Task {
      while !Task.isCancelled {
        let now = timing.now()
        bars.draw(
          progress.running().map {
            DownloadBar.line($0, now: now, width: width, unicode: unicode)
          })
        do {
          try await timing.limit(.milliseconds(200))
        } catch {
          return
        }
      }
    }
  }

  /// `downloaded  48 MB  /home/me/Downloads/…` (or `already`, `resumed`).
  static func line(_ outcome: DownloadOutcome) -> String {
    let verb =
      outcome.job.isDone ? "already" : outcome.resumedFrom > 0 ? "resumed" : "downloaded"
    return verb.padding(to: 12) + ByteCount.text(outcome.bytes).padding(to: 10)
      + TerminalSanitizer.clean(outcome.job.path)
  }
}
