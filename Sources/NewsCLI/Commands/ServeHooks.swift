import Dispatch
import Foundation
import NewsCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `news serve` tells and waits for: the real signals by default, a test's own otherwise.
public struct ServeHooks: Sendable {
  /// Told the port once the server listens.
  public var listening: @Sendable (UInt16) -> Void = { _ in }
  /// Returns when the server should stop: SIGINT or SIGTERM.
  public var stop: @Sendable () async -> Void = ServeHooks.signalled
  /// Waits between two refreshes of `--refresh`.
  public var refreshPause: Sleeper = { try await Task.sleep(for: $0) }
  /// PBKDF2's rounds for a password set (OWASP's count; tests lower it).
  public var iterations = ServerLogin.recommendedIterations

  public init() {}

  /// Waits for SIGINT or SIGTERM (neither then ends the process: the server stops first).
  @Sendable public static func signalled() async {
    let latch = SignalLatch()
    let queue = DispatchQueue(label: "news.serve.signals")
    let sources = [SIGINT, SIGTERM].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler { latch.fire() }
      source.resume()
      return source
    }
    await withCheckedContinuation { latch.wait($0) }
    for source in sources { source.cancel() }
  }
}

/// Resumes the one waiting, once, whichever signal comes first (or at once if one came).
private final class SignalLatch: Sendable {
  private let state = Mutex<(waiting: CheckedContinuation<Void, Never>?, fired: Bool)>(
    (nil, false))

  func wait(_ continuation: CheckedContinuation<Void, Never>) {
    let fired = state.withLock {
      if !$0.fired { $0.waiting = continuation }
      return $0.fired
    }
    if fired { continuation.resume() }
  }

  func fire() {
    let waiting = state.withLock {
      let waiting = $0.waiting
      $0 = (nil, true)
      return waiting
    }
    waiting?.resume()
  }
}
