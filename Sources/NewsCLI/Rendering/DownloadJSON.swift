import NewsCore

/// `news download --json`.
enum DownloadJSON {
  /// `{"schemaVersion","downloads":[{"id","title","source","url","type","path","bytes",
  /// "resumedFrom","status","error"}]}`.
  static func json(_ outcomes: [DownloadOutcome]) -> JSONValue {
    .object([
      ("schemaVersion", .int(ArticleJSON.schemaVersion)),
      (
        "downloads",
        .array(
          outcomes.map { outcome in
            .object([
              ("id", .string(outcome.job.article.id)),
              ("title", .string(outcome.job.article.title)),
              ("source", .string(outcome.job.article.provider)),
              ("url", .string(outcome.job.enclosure.url)),
              ("type", .string(outcome.job.enclosure.type)),
              ("path", .string(outcome.job.path)),
              ("bytes", .int(Int(outcome.bytes))),
              ("resumedFrom", .int(Int(outcome.resumedFrom))),
              ("status", .string(outcome.status)),
              ("error", .string(outcome.error?.sentence)),
            ])
          })
      ),
    ])
  }
}
