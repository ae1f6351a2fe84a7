import FeedParsing
import Foundation

/// Turns the bytes a feed source sends into items. One small type per shape of source.
///
/// To add a source in code, write an adapter and add one line to ``FeedRegistry/builtIn``.
public protocol FeedAdapter: Sendable {
  /// Decodes `data` into items of the source named `source`.
  ///
  /// - Throws: ``FeedError/undecodable(source:detail:)`` saying what is wrong with the body.
  func items(from data: Data, source: String) throws -> [FeedItem]

  /// What `news sources` shows as the source's format (`json` unless said otherwise).
  var format: String { get }

  /// Decodes `data`, served from `origin`: its items, what was left out while reading it, and
  /// what the document says of itself (how long it stays the same, its title and site).
  func decode(_ data: Data, source: String, origin: FeedOrigin) throws -> DecodedFeed
}

extension FeedAdapter {
  /// JSON of a known shape.
  public var format: String { "json" }

  /// ``items(from:source:)``, nothing left out.
  public func decode(_ data: Data, source: String, origin: FeedOrigin) throws -> DecodedFeed {
    DecodedFeed(items: try items(from: data, source: source))
  }

  /// Decodes a `Decodable` wire type, turning failures into a ``FeedError`` for this source.
  func decode<Wire: Decodable>(_ type: Wire.Type, from data: Data, source: String) throws -> Wire {
    do {
      return try JSONDecoder().decode(Wire.self, from: data)
    } catch {
      throw FeedError.undecodable(source: source, detail: DecodingErrorDescription.describe(error))
    }
  }
}
