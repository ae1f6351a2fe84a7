import FeedParsing
import Foundation
import NewsCore
import NewsServer
import Serving
import Synchronization

/// `news serve`: the store as a Google Reader API and Fever server, for the apps on a phone.
enum ServeCommand {
  static let listen = OptionKey<String>.text(
    "listen", "<address:port>", help: "Where to listen (default 127.0.0.1:8080).")
  static let refresh = OptionKey<String>.text(
    "refresh", "<interval>", help: "Run what news sync runs every interval (at least 1m): 30m, 1h.")
  static let quiet = Flag("quiet", help: "Log only the requests that failed.")
  static let setPassword = Flag(
    "set-password", help: "Set the password apps sign in with (asked, or read from stdin).")
  static let fever = Flag(
    "fever", help: "With --set-password: keep the Fever key too (Fever's MD5 of user:password).")
  static let user = OptionKey<String>.text(
    "user", "<name>", help: "With --set-password: the user name apps sign in with.")

  static let spec = CommandSpec(
    name: "serve",
    abstract: "Serve the store to phone apps: the Google Reader API and Fever, one process.",
    discussion: """
      Serves what news keeps to the apps that speak the Google Reader API (Reeder, NetNewsWire,
      ReadKit, FeedMe, Read You, Fluent Reader) or Fever (Unread, Reeder), until Ctrl-C or
      SIGTERM: the requests in flight are answered, then it exits 0. A mark made on the phone
      is made here as news read makes it (queued for an account's server too), and the reverse.
      One line a request on stderr; --quiet logs only failed ones. --refresh runs what news sync
      runs every interval (the same lock: a sync from cron beside it waits its turn).

      It listens on 127.0.0.1:8080 unless --listen says otherwise; beyond this machine it
      needs a password (exit 64 without). Set one first, kept salted and stretched in the
      encrypted store: news serve --set-password --user ann [--fever]. Over plain http
      passwords travel in clear: put a TLS proxy in front (docs/serve.md).

      EXAMPLES:
        news serve                                   # http://127.0.0.1:8080/
        news serve --set-password --user ann --fever
        news serve --listen 0.0.0.0:8080 --refresh 30m
      """,
    options: [listen.spec, refresh.spec, quiet.spec, setPassword.spec, user.spec, fever.spec])

  static let entry = CommandEntry(
    spec: spec, usesNetwork: { $0[refresh] != nil }, validate: validate, run: run)

  static func validate(_ arguments: ParsedArguments, context: Context) throws {
    if arguments[setPassword] {
      for (given, name) in [
        (arguments[listen] != nil, "--listen"), (arguments[refresh] != nil, "--refresh"),
        (arguments[quiet], "--quiet"),
      ] where given {
        throw UsageError(command: "serve", message: "--set-password and \(name) contradict")
      }
    } else {
      for (given, name) in [(arguments[user] != nil, "--user"), (arguments[fever], "--fever")]
      where given {
        throw UsageError(command: "serve", message: "\(name) goes with --set-password")
      }
    }
    if let text = arguments[refresh], interval(text) == nil {
      throw UsageError(
        command: "serve", message: "--refresh '\(text)' is not an interval",
        hint: "give a number and s, m, h or d, at least 1m: 30m")
    }
    if let text = arguments[listen], ListenAddress(text) == nil {
      throw UsageError(
        command: "serve", message: "--listen '\(text)' is not an IPv4 address and port",
        hint: "127.0.0.1:8080, or 0.0.0.0:8080 for every interface")
    }
  }

  static func run(_ arguments: ParsedArguments, context: Context) async throws -> ExitCode {
    let services = try context.services()
    let store = try services.articleStore()
    if arguments[setPassword] {
      return try setPassword(arguments, store: store, context: context)
    }
    let address = ListenAddress(arguments[listen] ?? "127.0.0.1:8080") ?? ListenAddress.loopback
    let login = try store.serverLogin()
    if !address.isLoopback, login == nil {
      throw ServeError.passwordNeeded(address: address.text)
    }
    MallocArenas.apply(environment: context.environment)
    let log = RequestLog(context: context, quiet: arguments[quiet])
    let source = ServicesSource(context: context, first: services)
    let reader = ReaderServer(services: { try source.current() })
    let server: HTTPServer
    do {
      server = try HTTPServer(
        address: address.host, port: address.port, onExchange: log.write,
        handler: reader.handle)
    } catch {
      throw ServeError.cannotListen(address: address.text, reason: Self.reason(error))
    }
    server.start()
    let shown = "\(address.host):\(server.port)"
    log.announce(
      "serving \(store.store.directory.path) on http://\(shown)/ (Google Reader API; Fever at "
        + "/fever/) until Ctrl-C" + (login == nil ? "; no password is set" : ""))
    if !address.isLoopback {
      context.warn(
        "passwords travel in clear over http to \(shown): put a TLS proxy in front "
          + "(docs/serve.md)")
    }
    context.serving.listening(server.port)
    let refresher = arguments[refresh].flatMap(interval).map { every in
      Task { await refreshLoop(every: every, source: source, log: log, context: context) }
    }
    await context.serving.stop()
    refresher?.cancel()
    server.stop()
    _ = await refresher?.value
    log.announce("stopped")
    return .success
  }

  /// `--set-password`: asked on the terminal (twice), else the first line of standard input.
  private static func setPassword(
    _ arguments: ParsedArguments, store: ArticleStore, context: Context
  ) throws -> ExitCode {
    let user =
      arguments[user] ?? context.environment["USER"].flatMap { $0.isEmpty ? nil : $0 }
      ?? "news"
    let password: String
    if let typed = context.readSecret("Password for \(user) (news serve): ") {
      guard context.readSecret("The same again: ") == typed else {
        throw ServeError.noPassword("the two differ")
      }
      password = typed
    } else {
      password = context.readStandardInput() ?? ""
    }
    guard !password.isEmpty else { throw ServeError.noPassword("the password is empty") }
    try store.setServerLogin(
      ServerLogin(
        user: user, password: password, fever: arguments[fever],
        iterations: context.serving.iterations, random: context.randomBytes))
    context.printer.line(
      "news serve: apps sign in as \(user)"
        + (arguments[fever]
          ? "; the Fever key is kept too" : "; Fever is off (--fever keeps its key)"))
    return .success
  }

  /// Runs what `news sync` runs every `every`, until cancelled; a sync already running (cron's)
  /// is left to finish.
  private static func refreshLoop(
    every: Duration, source: ServicesSource, log: RequestLog, context: Context
  ) async {
    while !Task.isCancelled {
      do {
        try await context.serving.refreshPause(every)
      } catch {
        return
      }
      do {
        let report = try await source.current().sync().run(wait: false)
        let failed = report.sources.filter { $0.status == .failed }
        // --quiet logs it when a source failed as it was asked, not each time one failing run
        // after run is left alone (as sync --quiet).
        log.note(
          "refreshed: \(report.sources.count.counted("source"))"
            + (failed.isEmpty ? "" : ", \(failed.count) failed"),
          failed: failed.contains(where: \.asked))
      } catch StoreError.locked {
        log.note("refresh skipped: another sync is running", failed: false)
      } catch {
        log.note(
          "refresh failed: " + ((error as? any NewsError)?.message ?? "\(error)"), failed: true)
      }
    }
  }

  /// `30m` → 30 minutes (``DurationText``: seconds, or a number and s, m, h or d); at least a
  /// minute, at most a year.
  static func interval(_ text: String) -> Duration? {
    DurationText.wholeSeconds(text, in: 60...31_536_000).map { .seconds($0) }
  }

  private static func reason(_ error: any Error) -> String {
    guard let error = error as? HTTPServer.StartError else { return "\(error)" }
    switch error {
    case .badAddress(let address): return "\(address) is not an IPv4 address"
    case .socket(let call, let code): return "\(call): \(String(cString: strerror(code)))"
    }
  }
}
