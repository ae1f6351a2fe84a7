import Foundation

@testable import NewsCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A client whose requests hang until the test lets them go: each is handed to the test as it
/// is sent (``arrivals``), and ends, as a timeout, when the test says (``release``), whether or
/// not it was cancelled: a request stuck where cancelling cannot reach it.
final class HeldClient: HTTPClient {
  let arrivals: AsyncStream<OutgoingRequest>
  private let arrived: AsyncStream<OutgoingRequest>.Continuation
  let release: AsyncStream<Void>.Continuation
  private let released: AsyncStream<Void>
  let timesOutPrecisely: Bool

  /// With `timesOutPrecisely`, the client says it keeps the request's timeout itself.
  init(timesOutPrecisely: Bool = false) {
    (arrivals, arrived) = AsyncStream.makeStream()
    (released, release) = AsyncStream.makeStream()
    self.timesOutPrecisely = timesOutPrecisely
  }

  func send(_ request: OutgoingRequest) async throws -> HTTPResponse {
    arrived.yield(request)
    var iterator = released.makeAsyncIterator()
    _ = await iterator.next()
    throw URLError(.timedOut)
  }
}
