/// The bounds a server holds every connection to (#55.4): what a request may weigh, how long it
/// may take to arrive, how long an idle connection is kept, how many are served at once.
public struct HTTPLimits: Sendable {
  /// The request line and headers together: more is 431.
  public var headBytes = 16 * 1024
  /// How many header lines: more is 431.
  public var headerCount = 100
  /// The body: more is 413.
  public var bodyBytes = 1024 * 1024
  /// Connections served at once; the next ones wait for a place up to ``queueWait``, then are
  /// answered 503.
  public var connections = 64
  /// How long a connection waits for a place before its 503.
  public var queueWait: Duration = .seconds(5)
  /// From a request's first byte to its last: a request slower than this (slowloris) is closed.
  public var requestTime: Duration = .seconds(10)
  /// How long a kept-alive connection may sit idle between requests.
  public var idleTime: Duration = .seconds(60)

  /// The bounds #55 names.
  public init() {}
}
