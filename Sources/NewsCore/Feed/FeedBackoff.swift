import Foundation

/// Until when each feed source asked not to be asked again (`429` or `503` with `Retry-After`),
/// kept across runs in the cache directory's `backoff` file: a cron job does not hammer a server
/// that said to wait. A `429` (too many requests) holds every source of its host
/// (``hostKey(_:)``). Entries past their time are dropped when the file is next written.
struct FeedBackoff: Sendable {
  let store: EncryptedStore

  /// The key a host's wait is kept under: `//` and the host, which no source's name can be.
  static func hostKey(_ url: URL) -> String? {
    url.host.map { "//" + $0.lowercased() }
  }

  /// The sources still to wait for, and until when (an unreadable file waits for none).
  func read(now: Date) -> [String: Date] {
    guard let times = try? store.read([String: Double].self, name: StoreLayout.backoff) else {
      return [:]
    }
    return times.compactMapValues { until in
      until > now.timeIntervalSince1970 ? Date(timeIntervalSince1970: until) : nil
    }
  }

  /// Adds `waits` (source → until when) to the file, dropping the ones past.
  func record(_ waits: [String: Date], now: Date) throws {
    try store.update(StoreLayout.backoff, initial: [String: Double]()) { times in
      times = times.filter { $0.value > now.timeIntervalSince1970 }
      for (source, until) in waits { times[source] = until.timeIntervalSince1970 }
    }
  }
}
