import Foundation

/// Turns the bytes a feed source sends into items. One small type per shape of source.
///
/// To add a source in code, write an adapter and add one line to ``FeedRegistry/builtIn``.
public protocol FeedAdapter: Sendable {
  /// Decodes `data` into items of the source named `source`.
  ///
  /// - Throws: ``FeedError/undecodable(source:detail:)`` saying what is wrong with the body.
  func items(from data: Data, source: String) throws -> [FeedItem]
}

extension FeedAdapter {
  /// Decodes a `Decodable` wire type, turning failures into a ``FeedError`` for this source.
  func decode<Wire: Decodable>(_ type: Wire.Type, from data: Data, source: String) throws -> Wire {
    do {
      return try JSONDecoder().decode(Wire.self, from: data)
    } catch {
      throw FeedError.undecodable(source: source, detail: DecodingErrorDescription.describe(error))
    }
  }
}

/// A feed source failed, or is declared wrongly.
public enum FeedError: NewsError, Equatable {
  /// The body is not the shape the source's adapter expects.
  case undecodable(source: String, detail: String)
  /// The source answered with an error status, after `attempts` attempts.
  case status(source: String, code: Int, attempts: Int = 1)

  public var message: String {
    switch self {
    case .undecodable(let source, let detail):
      return "source \(source) sent something unexpected: \(detail)"
    case .status(let source, let code, let attempts):
      return
        "source \(source) answered HTTP \(code) \(HTTPError.reasonPhrase(code))\(HTTPError.after(attempts))"
    }
  }

  public var exitCode: ExitCode {
    switch self {
    case .undecodable: return .dataError
    case .status: return .unavailable
    }
  }
}
