import NewsCore

/// `news import newsboat --json`: `{"schemaVersion","directory","dryRun","sources","tags",
/// "savedSearches","ignoreRules","keys","colors","highlights","commands","articles","state",
/// "existing","lines":[{"file","line","text","carried","as"|"why"}]}`.
enum ImportJSON {
  static func document(
    _ plan: NewsboatImport, dryRun: Bool, state: NewsboatCache.Outcome? = nil
  ) -> JSONValue {
    .object([
      ("schemaVersion", .int(ArticleJSON.schemaVersion)),
      ("directory", .string(plan.directory)), ("dryRun", .bool(dryRun)),
      ("sources", .int(plan.sourceCount)), ("tags", .int(plan.tagCount)),
      ("savedSearches", .int(plan.searchCount)),
      ("ignoreRules", .int(plan.ignoreRules.count)), ("keys", .int(plan.count(.keys))),
      ("colors", .int(plan.count(.colors))), ("highlights", .int(plan.count(.highlights))),
      ("commands", .int(plan.count(.commands))),
      ("articles", .int(plan.cache?.items.count ?? 0)),
      (
        "state",
        state.map {
          .object([
            ("read", .int($0.read)), ("bookmarked", .int($0.bookmarked)), ("kept", .int($0.kept)),
            ("leftOut", .int($0.leftOut)),
          ])
        } ?? .null
      ),
      ("existing", .int(plan.existing)),
      (
        "lines",
        .array(
          plan.lines.map { line in
            .object([
              ("file", .string(line.file)), ("line", .int(line.number)),
              ("text", .string(line.text)), ("carried", .bool(line.carried)),
              (line.carried ? "as" : "why", .string(line.outcome)),
            ])
          })
      ),
    ])
  }
}
