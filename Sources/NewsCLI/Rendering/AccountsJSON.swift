import NewsCore

/// `news accounts --json`: `{"schemaVersion","accounts":[{"name","type","url","user","feeds",
/// "lastSyncAt","pendingMarks","goneBookmarks","sources"}]}` (never the password).
enum AccountsJSON {
  /// One account as listed.
  struct Row {
    var account: Account
    var state: AccountState
    var pendingMarks: Int
    var goneBookmarks: Int
  }

  static func document(_ rows: [Row]) -> JSONValue {
    .object([
      ("schemaVersion", .int(ArticleJSON.schemaVersion)),
      (
        "accounts",
        .array(
          rows.map { row in
            .object([
              ("name", .string(row.account.name)), ("type", .string(row.account.kind.rawValue)),
              ("url", .string(row.account.url.absoluteString)),
              ("user", .string(row.account.user)), ("feeds", .int(row.state.feeds.count)),
              ("lastSyncAt", .date(row.state.lastSyncAt)),
              ("pendingMarks", .int(row.pendingMarks)),
              ("goneBookmarks", .int(row.goneBookmarks)),
              ("sources", .array(row.state.feeds.map { .string($0.source) })),
            ])
          })
      ),
    ])
  }
}
