import Foundation
import Synchronization

/// What one run learnt of its sources' hosts, for the run's other sources on them:
///
/// - the hosts that answered `429 Too Many Requests` with `Retry-After`, and until when: the
///   run's other sources on that host are not asked (the next runs read the same waits from
///   ``FeedBackoff``);
/// - the servers that could not be reached at all (the connection refused, the name not found,
///   no network), after every retry: the run's other sources on that server fail at once with
///   the same words, rather than each waiting out its own retries. Fifty feeds of a self-hosted
///   bridge that is down cost one source's retries, not fifty. The next run asks again.
final class HostPauses: Sendable {
  private let pauses = Mutex<[String: Date]>([:])
  private let unreachable = Mutex<[String: String]>([:])

  /// Until when `url`'s host asked to wait, if it did and that is after `now`.
  func until(_ url: URL, now: Date) -> Date? {
    guard let key = FeedBackoff.hostKey(url) else { return nil }
    return pauses.withLock { $0[key] }.flatMap { $0 > now ? $0 : nil }
  }

  /// Holds `url`'s host until `until`.
  func pause(_ url: URL, until: Date) {
    guard let key = FeedBackoff.hostKey(url) else { return }
    pauses.withLock { pauses in
      if until > (pauses[key] ?? .distantPast) { pauses[key] = until }
    }
  }

  /// Every host held, by its ``FeedBackoff/hostKey(_:)``.
  var all: [String: Date] { pauses.withLock { $0 } }

  /// Why `url`'s server could not be reached earlier in the run, if it could not.
  func unreachable(_ url: URL) -> String? {
    // Most runs reach every server: no key is made for each of 10,000 sources then.
    guard !unreachable.withLock({ $0.isEmpty }), let key = Self.serverKey(url) else { return nil }
    return unreachable.withLock { $0[key] }
  }

  /// Notes that `url`'s server could not be reached, in `message`'s words, when `error` says so
  /// (a refused connection, a name not found, no network); any other failure is the source's own.
  func noteFailure(_ error: any Error, of url: URL, message: String) {
    guard let key = Self.serverKey(url), (error as? HTTPError)?.isUnreachable == true else {
      return
    }
    unreachable.withLock { $0[key] = $0[key] ?? message }
  }

  /// A server as a connection reaches it: scheme, host and port (another port of the same host
  /// may well answer).
  private static func serverKey(_ url: URL) -> String? {
    guard let host = url.host?.lowercased(), let scheme = url.scheme?.lowercased() else {
      return nil
    }
    return "\(scheme)://\(host):\(url.port ?? (scheme == "https" ? 443 : 80))"
  }
}
