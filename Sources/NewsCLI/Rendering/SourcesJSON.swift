import Foundation
import NewsCore

/// `news sources --json` and `news sources --failing --json`.
enum SourcesJSON {
  /// `{"schemaVersion","sources":[{"name","url","format","ttl","status","fetchedAt","error",
  /// "tags","maxItems","enabled","search","account","fullText","hidden","lastSuccessAt","failingSince",
  /// "failures","lastError","nextFetchAt","nextFetchReason","refreshInterval","postsEvery"}]}`: the
  /// providers first (with `"missing"`), then the sources.
  static func document(
    providers: [ProviderStatus], rows: [(FeedSource, FeedService.LastFetch)],
    failures: [String: FeedFailures.Failure]
  ) -> JSONValue {
    .object([
      ("schemaVersion", .int(ArticleJSON.schemaVersion)),
      (
        "sources",
        .array(
          providers.map(row) + rows.map { row($0, $1, failure: failures[$0.name]) })
      ),
    ])
  }

  /// The same document as ``document(providers:rows:failures:)`` indented, handed to `write` a
  /// few hundred sources at a time: 10,000 sources are never one tree of values nor one string.
  static func write(
    providers: [ProviderStatus], rows: [(FeedSource, FeedService.LastFetch)],
    failures: [String: FeedFailures.Failure], to write: (String) -> Void
  ) {
    var pieces = JSONArrayPieces(
      head: "{\n  \"schemaVersion\": \(ArticleJSON.schemaVersion),\n  \"sources\": [")
    func add(_ value: JSONValue) {
      pieces.append(value)
      if pieces.bytes.count >= 1 << 16 { write(pieces.take()) }
    }
    for provider in providers { add(row(provider)) }
    for (source, last) in rows { add(row(source, last, failure: failures[source.name])) }
    pieces.close(then: "\n}\n")
    write(pieces.take())
  }

  /// A provider's row, `"missing"` with it.
  static func row(_ provider: ProviderStatus) -> JSONValue {
    .object([
      ("name", .string(provider.name)), ("url", .string(provider.url.absoluteString)),
      ("format", .string("provider")), ("ttl", .int(nil)),
      (
        "status",
        .string(provider.error != nil ? "damaged" : provider.fetchedAt == nil ? "never" : "fetched")
      ),
      ("fetchedAt", .date(provider.fetchedAt)), ("error", .string(provider.error)),
      ("tags", .array([])), ("maxItems", .int(nil)), ("enabled", .bool(provider.enabled)),
      ("search", .string(nil)), ("account", .string(nil)),
      ("missing", .string(provider.missing)), ("fullText", .bool(false)),
      ("hidden", .bool(false)),
      ("lastSuccessAt", .date(provider.fetchedAt)), ("failingSince", .date(nil)),
      ("failures", .int(0)), ("lastError", .string(nil)),
      ("nextFetchAt", .date(nil)), ("nextFetchReason", .string(nil)),
      ("refreshInterval", .int(nil)), ("postsEvery", .int(nil)),
    ])
  }

  /// A source's row.
  static func row(
    _ source: FeedSource, _ last: FeedService.LastFetch, failure: FeedFailures.Failure?
  ) -> JSONValue {
    let (fetchedAt, error) = (last.fetchedAt, last.error)
    return .object([
      ("name", .string(source.name)), ("url", .string(source.url.absoluteString)),
      ("format", .string(source.adapter.format)),
      ("ttl", .int(Int(source.ttl.components.seconds))),
      ("status", .string(error != nil ? "damaged" : fetchedAt == nil ? "never" : "fetched")),
      ("fetchedAt", .date(fetchedAt)), ("error", .string(error)),
      ("tags", .array(source.tags.map { .string($0) })),
      ("maxItems", .int(source.maxItems)), ("enabled", .bool(source.enabled)),
      ("search", .string(source.search)), ("account", .string(source.account)),
      ("fullText", .bool(source.fullText)), ("hidden", .bool(source.hidden)),
      ("lastSuccessAt", .date(fetchedAt)),
      ("failingSince", .date(failure.map { Date(timeIntervalSince1970: $0.since) })),
      ("failures", .int(failure?.failures ?? 0)),
      ("lastError", .string(failure?.error)),
      ("nextFetchAt", .date(last.next.at)),
      ("nextFetchReason", .string(NextFetchText.reasonName(last.next.reason))),
      ("refreshInterval", .int(last.next.interval.map { Int($0.rounded()) })),
      ("postsEvery", .int(last.next.postsEvery.map { Int($0.rounded()) })),
    ])
  }

  /// `{"schemaVersion","failing":[{"name","since","lastFailedAt","error","failures"}]}`.
  static func failing(_ sorted: [(key: String, value: FeedFailures.Failure)]) -> JSONValue {
    .object([
      ("schemaVersion", .int(ArticleJSON.schemaVersion)),
      (
        "failing",
        .array(
          sorted.map { name, failure in
            .object([
              ("name", .string(name)),
              ("since", .date(Date(timeIntervalSince1970: failure.since))),
              ("lastFailedAt", .date(Date(timeIntervalSince1970: failure.last))),
              ("error", .string(failure.error)), ("failures", .int(failure.failures)),
            ])
          })
      ),
    ])
  }
}
