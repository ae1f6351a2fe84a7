import Foundation
import NewsCore

/// `news sources --json` and `news sources --failing --json`.
enum SourcesJSON {
  /// `{"schemaVersion","sources":[{"name","url","format","ttl","status","fetchedAt","error",
  /// "tags","maxItems","enabled","search","account","fullText","hidden","lastSuccessAt","failingSince",
  /// "failures","lastError","nextFetchAt","nextFetchReason","refreshInterval","postsEvery",
  /// "title","site"}]}`: the
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
          providers.map { provider in JSONMembers.object { row(provider, into: &$0) } }
            + rows.map { source, last in
              JSONMembers.object { row(source, last, failure: failures[source.name], into: &$0) }
            })
      ),
    ])
  }

  /// The same document as ``document(providers:rows:failures:)`` indented, handed to `write` a
  /// few hundred sources at a time: 10,000 sources are never one tree of values nor one string,
  /// and each row goes straight into the document's bytes.
  static func write(
    providers: [ProviderStatus], rows: [(FeedSource, FeedService.LastFetch)],
    failures: [String: FeedFailures.Failure], to write: (String) -> Void
  ) {
    var pieces = JSONArrayPieces(
      head: "{\n  \"schemaVersion\": \(ArticleJSON.schemaVersion),\n  \"sources\": [")
    func add(_ build: (inout JSONObjectWriter) -> Void) {
      pieces.appendObject(build)
      if pieces.bytes.count >= 1 << 16 { write(pieces.take()) }
    }
    for provider in providers { add { row(provider, into: &$0) } }
    for (source, last) in rows {
      add { row(source, last, failure: failures[source.name], into: &$0) }
    }
    pieces.close(then: "\n}\n")
    write(pieces.take())
  }

  /// A provider's row, `"missing"` with it.
  static func row(_ provider: ProviderStatus, into row: inout some JSONMemberSink) {
    row.add("name", string: provider.name)
    row.add("url", string: provider.url.withoutPassword.absoluteString)
    row.add("format", string: "provider")
    row.add("ttl", int: nil)
    row.add(
      "status",
      string: provider.error != nil ? "damaged" : provider.fetchedAt == nil ? "never" : "fetched")
    row.add("fetchedAt", date: provider.fetchedAt)
    row.add("error", string: provider.error)
    row.add("tags", strings: [])
    row.add("maxItems", int: nil)
    row.add("enabled", bool: provider.enabled)
    row.add("search", string: nil)
    row.add("account", string: nil)
    row.add("missing", string: provider.missing)
    row.add("fullText", bool: false)
    row.add("hidden", bool: false)
    row.add("lastSuccessAt", date: provider.fetchedAt)
    row.add("failingSince", date: nil)
    row.add("failures", int: 0)
    row.add("lastError", string: nil)
    row.add("nextFetchAt", date: nil)
    row.add("nextFetchReason", string: nil)
    row.add("refreshInterval", int: nil)
    row.add("postsEvery", int: nil)
    row.add("title", string: nil)
    row.add("site", string: nil)
  }

  /// A source's row.
  static func row(
    _ source: FeedSource, _ last: FeedService.LastFetch, failure: FeedFailures.Failure?,
    into row: inout some JSONMemberSink
  ) {
    let (fetchedAt, error) = (last.fetchedAt, last.error)
    row.add("name", string: source.name)
    row.add("url", string: source.url.withoutPassword.absoluteString)
    row.add("format", string: source.adapter.format)
    row.add("ttl", int: Int(source.ttl.components.seconds))
    row.add("status", string: error != nil ? "damaged" : fetchedAt == nil ? "never" : "fetched")
    row.add("fetchedAt", date: fetchedAt)
    row.add("error", string: error)
    row.add("tags", strings: source.tags)
    row.add("maxItems", int: source.maxItems)
    row.add("enabled", bool: source.enabled)
    row.add("search", string: source.search)
    row.add("account", string: source.account)
    row.add("fullText", bool: source.fullText)
    row.add("hidden", bool: source.hidden)
    row.add("lastSuccessAt", date: fetchedAt)
    row.add("failingSince", date: failure.map { Date(timeIntervalSince1970: $0.since) })
    row.add("failures", int: failure?.failures ?? 0)
    row.add("lastError", string: failure?.error)
    row.add("nextFetchAt", date: last.next.at)
    row.add("nextFetchReason", string: NextFetchText.reasonName(last.next.reason))
    row.add("refreshInterval", int: last.next.interval.map { Int($0.rounded()) })
    row.add("postsEvery", int: last.next.postsEvery.map { Int($0.rounded()) })
    row.add("title", string: source.title)
    row.add("site", string: source.site?.absoluteString)
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
