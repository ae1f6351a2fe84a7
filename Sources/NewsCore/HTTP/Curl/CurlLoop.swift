import CCurl
import Foundation
import Synchronization

/// The one thread that drives every transfer of the process through a libcurl multi handle.
///
/// It sleeps until a socket is ready, a libcurl timer is due or another thread wakes it (a new
/// transfer, a cancellation): waiting on a slow server costs no CPU, and connections to one host
/// are reused across transfers. On Linux it waits on epoll and libcurl acts only on the sockets
/// that are ready (`curl_multi_socket_action`); elsewhere in `curl_multi_poll`, then
/// `curl_multi_perform` over every transfer (see `news_curl_loop_new` in CCurl).
final class CurlLoop: @unchecked Sendable {
  // @unchecked: `multi` and `active` belong to the loop's thread; `inbox` is locked.
  private struct Inbox {
    var started: [CurlTransfer] = []
    var cancelled: [CurlTransfer] = []
  }

  /// The process's loop, or `nil` when libcurl cannot be loaded.
  static let shared: CurlLoop? = news_curl_load() == 1 ? CurlLoop() : nil

  private let multi: UnsafeMutableRawPointer
  /// How the thread waits (CCurl's `news_curl_loop`).
  private let waiting: UnsafeMutableRawPointer
  private let inbox = Mutex(Inbox())
  private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]

  private init?() {
    guard let multi = news_curl_multi_init(), let waiting = news_curl_loop_new(multi) else {
      return nil
    }
    self.multi = multi
    self.waiting = waiting
    let thread = Thread { [self] in run() }
    thread.name = "news.curl"
    thread.start()
  }

  /// Whether the thread waits on epoll, libcurl acting on the ready sockets alone (Linux).
  var usesEvents: Bool { news_curl_loop_uses_events(waiting) == 1 }

  /// Hands `transfer` to the loop, which answers it once it is done, failed or cancelled.
  func start(_ transfer: CurlTransfer) {
    inbox.withLock { $0.started.append(transfer) }
    news_curl_loop_wake(waiting)
  }

  /// Stops `transfer` if it is still running; its caller gets `CancellationError`.
  func cancel(_ transfer: CurlTransfer) {
    inbox.withLock { $0.cancelled.append(transfer) }
    news_curl_loop_wake(waiting)
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
      // At most a minute; less when a libcurl timer is due (timeouts, retries of a connect).
      news_curl_loop_step(waiting, 60_000)
      var result: Int32 = 0
      while let easy = news_curl_multi_next_done(multi, &result) {
        guard let transfer = active.removeValue(forKey: easy) else { continue }
        _ = news_curl_multi_remove_handle(multi, easy)
        transfer.finish(result: result)
      }
    }
  }
}
