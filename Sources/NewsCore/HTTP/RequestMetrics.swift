import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What one attempt of a request cost, for analytics.
public struct RequestMetrics: Sendable, Equatable {
  /// The URL requested.
  public var url: URL
  /// Wall-clock time from sending to the end of the response (or the failure).
  public var duration: Duration
  /// The status, or `nil` when no response came.
  public var status: Int?
}
