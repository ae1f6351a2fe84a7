import NewsCore

/// `news ignore list --json`: `{"schemaVersion","rules":[{"number","field","pattern","regex",
/// "source"}]}`.
enum IgnoreJSON {
  static func document(_ rules: [IgnoreRule]) -> JSONValue {
    .object([
      ("schemaVersion", .int(ArticleJSON.schemaVersion)),
      (
        "rules",
        .array(
          rules.enumerated().map { index, rule in
            .object([
              ("number", .int(index + 1)), ("field", .string(rule.field.rawValue)),
              ("pattern", .string(rule.pattern)), ("regex", .bool(rule.isRegex)),
              ("source", .string(rule.source)),
            ])
          })
      ),
    ])
  }
}
