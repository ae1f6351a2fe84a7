/// A query that cannot be read: what is wrong, and where (exit 64 on the command line, 78 in
/// `config.json`, where ``entry`` names it).
public struct ArticleQueryError: NewsError, Equatable {
  /// What is wrong (`unknown field 'autor' (did you mean 'author'?)`).
  public var problem: String
  /// The query.
  public var query: String
  /// The column (1 for the first character) where the problem is.
  public var column: Int
  /// The `config.json` entry holding the query (`sources[3].search`), when it is from there.
  public var entry: String?

  /// `query: unknown field 'autor' (did you mean 'author'?) at column 1`, then the query and a
  /// caret under the column.
  public var message: String {
    let place =
      entry.map { "config.json: field '\($0)' holds a query that cannot be read: " } ?? "query: "
    let caret = String(repeating: " ", count: max(column - 1, 0)) + "^"
    return place + "\(problem) at column \(column)\n  \(query)\n  \(caret)"
  }

  public var exitCode: ExitCode { entry == nil ? .usage : .configuration }
}
