import Foundation
import NewsCore
import Synchronization
import TestSupport
import Testing

/// `news sync --account home` killed with SIGKILL while the server holds its first mark, for the
/// tests that a queued mark outlives `kill -9`. The server's ``route(isMark:answer:)`` holds the
/// first mark request unanswered (until the server stops: no timer to outlast) and answers the
/// rest as the fake server does; ``run(environment:sourceLocation:)`` starts the sync, waits
/// until that mark has arrived, and kills it.
final class KilledSync: Sendable {
  private let arrived = ArrivalBarrier(count: 2)
  private let sent = Mutex(0)

  /// How many mark requests reached the server, the held one included.
  var marks: Int { sent.withLock { $0 } }

  /// The route: the first request `isMark` says is a mark is held; every other is `answer`'s.
  func route(
    isMark: @escaping @Sendable (LoopbackServer.Request) -> Bool,
    answer: @escaping @Sendable (LoopbackServer.Request) -> LoopbackServer.Response
  ) -> LoopbackServer.Handler {
    { [self] request in
      guard isMark(request) else { return answer(request) }
      let first = sent.withLock { count in
        count += 1
        return count == 1
      }
      guard first else { return answer(request) }
      arrived.arrive()
      return .held
    }
  }

  /// Starts the sync with `environment`, kills it once its first mark is held, and checks that
  /// the kill is what ended it.
  func run(
    environment: [String: String], sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let process = try Spawned(
      BinaryTests.binary, arguments: ["sync", "--account", "home"],
      environment: environment.merging(["NEWS_RETRY_DELAY": "0"]) { $1 }
        .merging(SanitizerOptions.inherited) { $1 })
    #expect(
      await onOwnThread { self.arrived.arrive() }, "the sync sent its queued mark",
      sourceLocation: sourceLocation)
    process.kill(SIGKILL)
    let ended = await process.wait()
    #expect(ended.signalled && ended.status == SIGKILL, sourceLocation: sourceLocation)
  }
}
