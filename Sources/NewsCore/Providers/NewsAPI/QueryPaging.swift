/// The page of results a newsapi.org query asks for: `/v2/top-headlines` and `/v2/everything`
/// page alike, so their checks and parameters are here once.
enum QueryPaging {
  /// Checks `pageSize` (1 to 100, newsapi.org's limit) and `page` (1 or more).
  static func validate(pageSize: Int, page: Int) throws(QueryError) {
    if !(1...100).contains(pageSize) { throw .invalid("--page-size must be from 1 to 100") }
    if page < 1 { throw .invalid("--page must be 1 or more") }
  }

  /// The query string items, last in every request.
  static func queryItems(pageSize: Int, page: Int) -> [(String, String)] {
    [("pageSize", String(pageSize)), ("page", String(page))]
  }
}
