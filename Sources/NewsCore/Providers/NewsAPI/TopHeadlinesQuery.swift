import FeedParsing

/// The filters of newsapi.org's `/v2/top-headlines`.
public struct TopHeadlinesQuery: Sendable, Hashable, Codable {
  /// The categories newsapi.org knows.
  public static let categories = QueryDefaults.categories

  /// Two-letter country code; `nil` when `sources` is used.
  public var country: String?
  /// One of ``categories``.
  public var category: String?
  /// Keywords or a phrase to look for.
  public var query: String?
  /// newsapi.org source ids; cannot be combined with `country` or `category`.
  public var sources: [String]
  /// 1 to 100.
  public var pageSize: Int
  /// 1 or more.
  public var page: Int

  /// Creates a query. Without `sources`, a missing country or category comes from `defaults`
  /// (`us`, any category, unless `NEWS_COUNTRY` or `NEWS_CATEGORY` say otherwise).
  public init(
    country: String? = nil, category: String? = nil, query: String? = nil,
    sources: [String] = [], pageSize: Int = 20, page: Int = 1,
    defaults: QueryDefaults = QueryDefaults()
  ) {
    self.country = country ?? (sources.isEmpty ? defaults.country : nil)
    self.category = category ?? (sources.isEmpty ? defaults.category : nil)
    self.query = query
    self.sources = sources
    self.pageSize = pageSize
    self.page = page
  }

  /// Checks the query before any request is made.
  public func validate() throws(QueryError) {
    if !sources.isEmpty, country != nil || category != nil {
      throw .invalid(
        "--sources cannot be combined with --country or --category (a newsapi.org rule)")
    }
    if let country, country.count != 2 || !country.unicodeScalars.allSatisfy(\.isASCIILetter) {
      throw .invalid("--country must be a two-letter country code such as us, gb or de")
    }
    if let category, !Self.categories.contains(category) {
      throw .invalid(
        "--category must be one of \(Self.categories.joined(separator: ", ")); got '\(category)'")
    }
    try QueryPaging.validate(pageSize: pageSize, page: page)
    if let query, query.isEmpty { throw .invalid("--query must not be empty") }
  }

  /// The query string items, in a stable order.
  var queryItems: [(String, String)] {
    var items: [(String, String)] = []
    if let country { items.append(("country", country.lowercased())) }
    if let category { items.append(("category", category)) }
    if !sources.isEmpty { items.append(("sources", sources.joined(separator: ","))) }
    if let query { items.append(("q", query)) }
    items += QueryPaging.queryItems(pageSize: pageSize, page: page)
    return items
  }

  /// Identifies the query in the store, so that stored results stand in only for the same query.
  public var storageKey: String {
    "newsapi top-headlines " + queryItems.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
  }

  /// A short human description: `us · technology · "apple"`.
  public var summary: String {
    var parts: [String] = []
    if let country { parts.append(country.lowercased()) }
    if let category { parts.append(category) }
    if !sources.isEmpty { parts.append(sources.joined(separator: ",")) }
    if let query { parts.append("\"\(query)\"") }
    if page > 1 { parts.append("page \(page)") }
    return parts.joined(separator: " · ")
  }
}
