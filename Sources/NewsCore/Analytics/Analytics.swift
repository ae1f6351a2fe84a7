import Foundation
import Synchronization

/// Fire-and-forget usage events: `GET <NEWS_ANALYTICS_URL>?event=<name>&time=<ms>`.
///
/// Events never delay or change the output, never fail a command and are never retried. At exit
/// the program gives the ones still in flight a bounded time (``flush(within:)``). Inactive until
/// ``activate(endpoint:transport:)``, which the program only calls when analytics are on.
public final class Analytics: Sendable {
  private struct State {
    var endpoint: URL?
    var transport: HTTPTransport?
    var inFlight: [Int: Task<Void, Never>] = [:]
    var nextID = 0
  }

  private let state = Mutex(State())

  /// Creates an inactive sink.
  public init() {}

  /// Starts sending events to `endpoint` through `transport` (which should not retry).
  public func activate(endpoint: URL, transport: HTTPTransport) {
    state.withLock { state in
      guard state.endpoint == nil else { return }
      state.endpoint = endpoint
      state.transport = transport
    }
  }

  /// Whether events are being sent.
  public var isActive: Bool { state.withLock { $0.endpoint != nil } }

  /// Sends `event` with `time` in whole milliseconds, in the background.
  public func record(_ event: String, milliseconds: Int) {
    state.withLock { state in
      guard let endpoint = state.endpoint, let transport = state.transport else { return }
      let url = URLBuilder.url(
        endpoint, path: "", query: [("event", event), ("time", String(max(0, milliseconds)))])
      let id = state.nextID
      state.nextID += 1
      state.inFlight[id] = Task { [self] in
        _ = try? await transport.get(url)
        self.state.withLock { _ = $0.inFlight.removeValue(forKey: id) }
      }
    }
  }

  /// Sends a `load` event for a request that took `duration`.
  public func recordLoad(_ duration: Duration) {
    record("load", milliseconds: Self.milliseconds(duration))
  }

  /// Waits until every event in flight is sent, or `limit` has passed; the rest are abandoned.
  ///
  /// - Parameter sleep: waits out the limit (tests decide when it is over).
  public func flush(within limit: Duration, sleep: @escaping Sleeper) async {
    let events = state.withLock { Array($0.inFlight.values) }
    if !events.isEmpty {
      // Past the limit the events still in flight are cancelled (below), and not waited for:
      // awaiting a task's value does not pass a cancellation on, so waiting for them held a
      // command until their requests' own timeout (15 s against a hanging endpoint).
      _ = try? await firstOfWithoutWaiting(
        { for event in events { await event.value } }, orAfter: limit, sleep: sleep)
    }
    let abandoned = state.withLock { state in
      defer { state.inFlight = [:] }
      return Array(state.inFlight.values)
    }
    for task in abandoned { task.cancel() }
  }

  /// Whole milliseconds of `duration`.
  public static func milliseconds(_ duration: Duration) -> Int {
    let (seconds, attoseconds) = duration.components
    return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
  }
}
