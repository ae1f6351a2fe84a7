import CCurl
import Foundation
import Synchronization

/// The one thread that drives every transfer of the process through a libcurl multi handle.
///
/// It sleeps in `curl_multi_poll` until a socket is ready, a libcurl timer is due or another
/// thread wakes it (a new transfer, a cancellation): waiting on a slow server costs no CPU, and
/// connections to one host are reused across transfers.
final class CurlLoop: @unchecked Sendable {
  // @unchecked: `multi` and `active` belong to the loop's thread; `inbox` is locked.
  private struct Inbox {
    var started: [CurlTransfer] = []
    var cancelled: [CurlTransfer] = []
  }

  /// The process's loop, or `nil` when libcurl cannot be loaded.
  static let shared: CurlLoop? = news_curl_load() == 1 ? CurlLoop() : nil

  private let multi: UnsafeMutableRawPointer
  private let inbox = Mutex(Inbox())
  private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]

  private init?() {
    guard let multi = news_curl_multi_init() else { return nil }
    self.multi = multi
    let thread = Thread { [self] in run() }
    thread.name = "news.curl"
    thread.start()
  }

  /// Hands `transfer` to the loop, which answers it once it is done, failed or cancelled.
  func start(_ transfer: CurlTransfer) {
    inbox.withLock { $0.started.append(transfer) }
    _ = news_curl_multi_wakeup(multi)
  }

  /// Stops `transfer` if it is still running; its caller gets `CancellationError`.
  func cancel(_ transfer: CurlTransfer) {
    inbox.withLock { $0.cancelled.append(transfer) }
    _ = news_curl_multi_wakeup(multi)
  }

  private func run() {
    while true {
      let (started, cancelled) = inbox.withLock { inbox in
        defer { inbox = Inbox() }
        return (inbox.started, inbox.cancelled)
      }
      for transfer in started {
        // Cancelled before it reached the loop: never sent.
        if transfer.isCancelled {
          transfer.finish(throwing: CancellationError())
          continue
        }
        let added = news_curl_multi_add_handle(multi, transfer.easy)
        guard added == 0 else {
          transfer.finish(
            throwing: URLError(
              .unknown, userInfo: [NSLocalizedDescriptionKey: "libcurl refused the request"]))
          continue
        }
        active[transfer.easy] = transfer
      }
      for transfer in cancelled where active.removeValue(forKey: transfer.easy) != nil {
        _ = news_curl_multi_remove_handle(multi, transfer.easy)
        transfer.finish(throwing: CancellationError())
      }
      var running: Int32 = 0
      _ = news_curl_multi_perform(multi, &running)
      var result: Int32 = 0
      while let easy = news_curl_multi_next_done(multi, &result) {
        guard let transfer = active.removeValue(forKey: easy) else { continue }
        _ = news_curl_multi_remove_handle(multi, easy)
        transfer.finish(result: result)
      }
      // libcurl shortens the wait to its own next timer (timeouts, retries of a connect).
      _ = news_curl_multi_poll(multi, 60_000)
    }
  }
}
