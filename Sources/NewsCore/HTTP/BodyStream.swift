import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Where a streamed response goes instead of memory (``HTTPClient/stream(_:into:)``): the final
/// response's head, then each chunk of its body as it arrives. Either may throw to stop the
/// transfer; the client then throws that error. Called on the client's own thread, one call at
/// a time.
public struct BodyStream: Sendable {
  /// Called once with the final response (after any redirect), its body empty, before its
  /// first chunk.
  public var begin: @Sendable (HTTPResponse) throws -> Void
  /// Called with each chunk of the body, in order.
  public var receive: @Sendable (UnsafeRawBufferPointer) throws -> Void

  /// Creates a stream.
  public init(
    begin: @escaping @Sendable (HTTPResponse) throws -> Void,
    receive: @escaping @Sendable (UnsafeRawBufferPointer) throws -> Void
  ) {
    self.begin = begin
    self.receive = receive
  }
}
