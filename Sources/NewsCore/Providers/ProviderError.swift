import Foundation

/// A provider without an error format of its own (articles, BBC) failed.
public enum ProviderError: NewsError, Equatable {
  /// The provider answered with an error status after the retries.
  case status(provider: String, code: Int, attempts: Int = 1)
  /// The body is not the shape the provider documents.
  case undecodable(provider: String, detail: String)

  public var message: String {
    switch self {
    case .status(let provider, let code, let attempts):
      return
        "the \(provider) API answered \(HTTPError.status(code))\(HTTPError.after(attempts))"
    case .undecodable(let provider, let detail):
      return "the \(provider) API sent something unexpected: \(detail)"
    }
  }

  /// The network or the server failed: stored data may stand in.
  public var isOutage: Bool { true }

  public var exitCode: ExitCode {
    switch self {
    case .status(_, let code, _): return code == 429 ? .temporaryFailure : .unavailable
    case .undecodable: return .dataError
    }
  }
}

extension HTTPTransport {
  /// The body of a successful GET of `url`, for providers without an error format of their own.
  ///
  /// - Throws: ``ProviderError/status(provider:code:)`` for a non-2xx answer after the retries.
  func body(of url: URL, provider: String) async throws -> Data {
    let response = try await get(url)
    guard response.succeeded else {
      throw ProviderError.status(
        provider: provider, code: response.status, attempts: response.attempts)
    }
    return response.body
  }
}
