import FeedParsing
import Foundation
import NewsCore

/// The outside world as a command sees it: environment, working directory, terminal, network,
/// clock. ``Context/live()`` is the real one; tests build their own.
public struct Context: Sendable {
  /// The process environment.
  public var environment: [String: String]
  /// Where `.env` is looked for.
  public var currentDirectory: URL
  /// Standard output and error.
  public var console: Console

  /// Where a command's renderer writes (standard output).
  var printer: Printer { Printer(write: console.out) }
  /// The network.
  public var httpClient: any HTTPClient
  /// Time: the clock, the date, pauses between retries and limits (timeouts, deadlines, the
  /// analytics flush). Tests pass their own, which decide when limits pass.
  public var timing: Timing
  /// The time zone local times are shown in.
  public var timeZone: TimeZone
  /// Usage events; active once the configuration allows them.
  public var analytics: Analytics
  /// Random bytes (nonces, keys, temporary names).
  public var randomBytes: @Sendable (Int) -> [UInt8]
  /// The providers of `headlines` (tests add their own).
  public var providers: ProviderRegistry
  /// How long the program waits at exit for analytics events still in flight.
  public var analyticsFlushLimit: Duration = .milliseconds(300)
  /// Asks for a secret on the terminal without echo (`news accounts add`); `nil` when there is
  /// no terminal to ask on (tests give one).
  public var readSecret: @Sendable (String) -> String? = { _ in nil }
  /// Reads one line of standard input (`news serve --set-password` when it is not a terminal);
  /// `nil` at its end.
  public var readStandardInput: @Sendable () -> String? = { nil }
  /// What `news serve` is told and waits for (tests give their own).
  public var serving = ServeHooks()
  /// When the command started, for the `display` event's time.
  var startedAt: TimingMark?
  /// The transient line on standard error (spinner, retry notices).
  let statusLine: StatusLine
  /// The key and stores of this run, opened once whatever asks for them.
  let openedStores = OpenedStores()
  /// Styles for standard error (errors in red), set once the configuration is known.
  var errorStyle = Style(enabled: false)

  /// Creates a context; every dependency is given (``live()`` has the real ones, and
  /// ``unimplemented(environment:currentDirectory:console:)`` ones that fail loudly).
  public init(
    environment: [String: String], currentDirectory: URL, console: Console,
    httpClient: any HTTPClient, timing: Timing, timeZone: TimeZone, analytics: Analytics,
    randomBytes: @escaping @Sendable (Int) -> [UInt8], providers: ProviderRegistry = .builtIn
  ) {
    self.environment = environment
    self.currentDirectory = currentDirectory
    self.console = console
    self.httpClient = httpClient
    self.timing = timing
    self.timeZone = timeZone
    self.analytics = analytics
    self.randomBytes = randomBytes
    self.providers = providers
    statusLine = StatusLine(console: console)
  }

  /// A context for tests whose dependencies fail loudly when used (the network throws, reading
  /// the date or random bytes stops the test): a test sets what it needs, and a forgotten one
  /// cannot silently reach the real world.
  public static func unimplemented(
    environment: [String: String], currentDirectory: URL, console: Console
  ) -> Context {
    let dependencies = NewsDependencies.unimplemented
    return Context(
      environment: environment, currentDirectory: currentDirectory, console: console,
      httpClient: dependencies.httpClient, timing: dependencies.timing,
      timeZone: TimeZone.gmt, analytics: Analytics(),
      randomBytes: dependencies.randomBytes)
  }

  /// The running process's world.
  public static func live() -> Context {
    let environment = ProcessInfo.processInfo.environment
    PlatformNetworking.isolateFromHome()
    var context = Context(
      environment: environment,
      currentDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
      console: .live(environment: environment),
      httpClient: LiveHTTPClient.make(environment: environment), timing: .live,
      timeZone: .current, analytics: Analytics(), randomBytes: SecureRandom.bytes)
    context.readSecret = SecretPrompt.read
    context.readStandardInput = { readLine(strippingNewline: true) }
    return context
  }

  /// What the run was configured with: the environment's ``Configuration`` and `config.json`.
  struct Settings {
    var configuration: Configuration
    var configFile: FeedConfigFile?
    /// Keys, commands, theme and highlights (`config.json`), checked.
    var shape = ReaderShape()
  }

  /// The settings as read once at the start of the run (environment, `.env`, key file,
  /// `config.json`), or the error reading them gave.
  var loadedSettings: Result<Settings, any Error>?

  /// The settings: those read at start-up (``NewsCLI/run(_:context:)`` reads them once), or read
  /// now when none were.
  func settings() throws -> Settings {
    if let loadedSettings { return try loadedSettings.get() }
    return try readSettings()
  }

  /// The configuration (a broken `config.json` is an error here too, for every command).
  func configuration() throws -> Configuration { try settings().configuration }

  /// The configuration when it could be read; `nil` when it could not (the command that needs
  /// it reports why: help and standard error's set-up go on with the defaults).
  var validConfiguration: Configuration? {
    do {
      return try configuration()
    } catch {
      return nil
    }
  }

  /// Reads the configuration (``Configuration/load(environment:currentDirectory:)``: the
  /// environment, then `.env` here, then `.env` in the configuration directory), then the
  /// `config.json` it points at.
  func readSettings() throws -> Settings {
    let configuration = try Configuration.load(
      environment: environment, currentDirectory: currentDirectory)
    let file = try FeedConfigFile.load(
      configuration, sections: .core.adding(ReaderShape.sections))
    return Settings(
      configuration: configuration, configFile: file,
      shape: try ReaderShape(file, timeZone: timeZone))
  }

  /// Starts sending usage events when the configuration allows them. Called once, by
  /// ``NewsCLI/run(_:context:)``, for commands that use the network: offline means no request.
  func activateAnalytics() throws {
    let configuration = try configuration()
    guard configuration.analyticsEnabled else { return }
    // Analytics requests are never retried and never reported as `load` events themselves.
    analytics.activate(
      endpoint: configuration.analyticsURL,
      transport: HTTPTransport(
        client: httpClient, retryPolicy: RetryPolicy(retries: 0), timeout: configuration.timeout,
        timing: timing))
  }

  /// Every NewsCore service for the run's settings, with this context's dependencies: commands ask
  /// these, then render. On a terminal, a wait before a retry shows as a transient line
  /// (`retrying newsapi.org in 2 s (attempt 2 of 4)…`).
  func services() throws -> NewsServices {
    try services(settings())
  }

  /// Every NewsCore service for `settings` (`news serve` reads `config.json` again when it
  /// changes).
  func services(_ settings: Settings) -> NewsServices {
    let analytics = self.analytics
    let statusLine = self.statusLine
    return NewsServices(
      configuration: settings.configuration, configFile: settings.configFile,
      dependencies: NewsDependencies(
        httpClient: httpClient, timing: timing, randomBytes: randomBytes, timeZone: timeZone,
        onRequest: { metrics in analytics.recordLoad(metrics.duration) },
        onRetry: { notice in
          statusLine.setNotice(notice.isWaiting ? notice.description : nil, for: notice.host)
        }),
      providers: providers, opened: openedStores)
  }

  /// Sends the `display` event: the command has written its screen.
  func displayed() {
    analytics.record(
      "display", milliseconds: Analytics.milliseconds(startedAt?.elapsed() ?? .zero))
  }

  /// Writes a one-line warning to standard error (yellow on a terminal).
  func warn(_ message: String) { Self.warn(message, on: console, style: errorStyle) }

  /// ``warn(_:)`` with what it writes with, for a handler that must not hold the context.
  static func warn(_ message: String, on console: Console, style: Style) {
    console.err(style.yellow("news: warning: \(TerminalSanitizer.clean(message))") + "\n")
  }

  /// Writes the one-line error a failing command ends with (red on a terminal). A query's
  /// error keeps its lines: the query, and a caret under the column.
  func fail(_ message: String) {
    let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
    guard lines.count == 3, lines[1].hasPrefix("  "), lines[2].hasSuffix("^") else {
      console.err(errorStyle.red("news: \(TerminalSanitizer.clean(message))") + "\n")
      return
    }
    console.err(errorStyle.red("news: \(TerminalSanitizer.clean(String(lines[0])))") + "\n")
    for line in lines.dropFirst() { console.err(TerminalSanitizer.clean(String(line)) + "\n") }
  }

  /// The width to wrap text to: `COLUMNS` (environment or `.env`), else the terminal's.
  func width(_ configuration: Configuration) -> Int {
    configuration.columns.map { min(max($0, 20), 200) } ?? console.width
  }

  /// Text styles for standard output.
  func style(_ configuration: Configuration) -> Style {
    Style(
      terminal: console.stdoutIsTerminal, noColor: configuration.noColor, environment: environment)
  }

  /// Sets up standard error's styles and status line from `configuration` (or, when it cannot be
  /// read, from the process environment alone).
  mutating func prepareStandardError(_ configuration: Configuration?) {
    let noColor = configuration?.noColor ?? (environment["NO_COLOR"].map { !$0.isEmpty } ?? false)
    errorStyle = Style(
      terminal: console.stderrIsTerminal, noColor: noColor, environment: environment)
    statusLine.enable(errorStyle.enabled)
  }
}
