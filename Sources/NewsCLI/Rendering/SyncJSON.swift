import NewsCore

/// `news sync --json`.
enum SyncJSON {
  /// `{"schemaVersion","startedAt","finishedAt","sources":[{"name","status","new","total","error","attempts","asked","nextFetchAt"}]}`.
  static func json(_ report: SyncReport) -> JSONValue {
    .object([
      ("schemaVersion", .int(ArticleJSON.schemaVersion)),
      ("startedAt", .date(report.startedAt)),
      ("finishedAt", .date(report.finishedAt)),
      (
        "sources",
        .array(
          report.sources.map { source in
            .object([
              ("name", .string(source.name)),
              ("status", .string(source.status.rawValue)),
              ("new", .int(source.new)),
              ("total", .int(source.total)),
              ("error", .string(source.error)),
              ("attempts", .int(source.attempts)),
              ("asked", .bool(source.asked)),
              ("nextFetchAt", .date(source.next?.at)),
            ])
          })
      ),
    ])
  }
}
