import FeedParsing
import Foundation
import NewsCore

/// `news import newsboat [DIR]`: a whole newsboat setup carried over.
enum ImportCommand {
  static let spec = CommandSpec(
    name: "import", abstract: "Carry another reader's setup over: news import newsboat.",
    discussion: """
      EXAMPLES:
        news import newsboat --dry-run
        news import newsboat ~/.newsboat --json | jq '.lines[] | select(.carried | not)'
      """)

  static let entry = CommandEntry(
    spec: spec, subcommands: [newsboatEntry],
    run: { _, _ in
      throw UsageError(command: spec.name, message: "say what to import: news import newsboat")
    })

  static let newsboatEntry = CommandEntry(
    spec: CommandSpec(
      name: "import newsboat", abstract: "Imports newsboat's urls and config (--dry-run first).",
      discussion: """
        Reads DIR (default: ~/.newsboat, else $XDG_CONFIG_HOME/newsboat). Every line of urls
        and config is carried or listed as not carried, with why: urls lines become sources
        (their tags, ~titles, exec: and filter: commands) and query: feeds saved searches (the
        filter translated: docs/feeds.md); reload-time and max-items apply to the sources
        imported, ignore-article becomes ignore rules, notify-program a newItem hook, include
        is followed; bind-key, unbind-key and macro become keys (a macro is typed as ,KEY),
        color, highlight and highlight-article colours and highlights, bookmark-cmd and browser
        commands (on ^B and o). What would not be read as it is, is listed with why. cache.db
        (read with the system's SQLite) gives its articles' read and flagged state: marked
        read and bookmarked here, and the articles the feeds no longer list kept. Running it
        twice adds nothing.

        EXAMPLES:
          news import newsboat --dry-run
          news import newsboat ~/.config/newsboat
        """,
      options: [Options.dryRun.spec, Options.json.spec],
      arguments: [
        ArgumentSpec(name: "dir", help: "newsboat's directory.", required: false)
      ]),
    run: { arguments, context in
      let given = arguments.optionalArgument("dir").map {
        URL(fileURLWithPath: $0, relativeTo: context.currentDirectory).path
      }
      let (found, looked) = NewsboatImport.directory(given, environment: context.environment)
      guard let directory = found else {
        throw UsageError(
          command: "import newsboat",
          message: "no newsboat directory: looked in " + looked.joined(separator: " and "))
      }
      let services = try context.services()
      let subscriptions = services.subscriptions()
      var plan = subscriptions.newsboatPlan(
        directory,
        cachePath: NewsboatImport.cachePath(for: directory, environment: context.environment),
        home: context.environment["HOME"] ?? NSHomeDirectory())
      NewsboatShape.translate(
        &plan, config: subscriptions.configFile, timeZone: context.timeZone)
      sayAccount(&plan)
      NewsboatSettingNote.say(&plan)
      let dryRun = arguments[Options.dryRun]
      var state: NewsboatCache.Outcome?
      if !dryRun {
        try subscriptions.apply(plan, sections: .core.adding(ReaderShape.sections))
        if plan.cache != nil {
          try services.checkKey()
          state = try services.carryNewsboatState(plan)
        }
      }
      if arguments[Options.json] {
        context.printer.json(ImportJSON.document(plan, dryRun: dryRun, state: state))
      } else {
        context.printer.lines(
          ImportText.lines(
            plan, dryRun: dryRun, state: state,
            demoSources: dryRun || plan.sourceCount == 0 ? [] : services.demoSourcesOn()))
      }
      return .success
    })
}
