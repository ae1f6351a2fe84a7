import FeedParsing

/// The options of newsapi.org's `/v2/everything` search.
public struct EverythingQuery: Sendable, Hashable {
  /// The sort orders newsapi.org accepts.
  public static let sortOrders = ["relevancy", "popularity", "publishedAt"]
  /// The fields `searchIn` may name.
  public static let searchFields = ["title", "description", "content"]

  /// Keywords or phrases (`q`).
  public var words: String
  /// Two-letter language code.
  public var language: String?
  /// One of ``sortOrders``.
  public var sortBy: String?
  /// Oldest article, ISO 8601 date or date-time.
  public var from: String?
  /// Newest article, ISO 8601 date or date-time.
  public var to: String?
  /// Domains to search in.
  public var domains: [String]
  /// Domains to leave out.
  public var excludeDomains: [String]
  /// Fields to search in, among ``searchFields``.
  public var searchIn: [String]
  /// 1 to 100.
  public var pageSize: Int
  /// 1 or more.
  public var page: Int

  /// Creates a query.
  public init(
    words: String, language: String? = nil, sortBy: String? = nil, from: String? = nil,
    to: String? = nil, domains: [String] = [], excludeDomains: [String] = [],
    searchIn: [String] = [], pageSize: Int = 20, page: Int = 1
  ) {
    self.words = words
    self.language = language
    self.sortBy = sortBy
    self.from = from
    self.to = to
    self.domains = domains
    self.excludeDomains = excludeDomains
    self.searchIn = searchIn
    self.pageSize = pageSize
    self.page = page
  }

  /// Checks the query before any request is made.
  public func validate() throws(QueryError) {
    if words.trimmingWhitespace().isEmpty { throw .invalid("search needs at least one word") }
    if words.count > 500 { throw .invalid("the search words may be 500 characters at most") }
    if let language,
      language.count != 2 || !language.unicodeScalars.allSatisfy(\.isASCIILetter)
    {
      throw .invalid("--language must be a two-letter language code such as en, fr or de")
    }
    if let sortBy, !Self.sortOrders.contains(sortBy) {
      throw .invalid(
        "--sort-by must be one of \(Self.sortOrders.joined(separator: ", ")); got '\(sortBy)'")
    }
    let fromDate = try from.map { text throws(QueryError) in try Self.date(text, option: "--from") }
    let toDate = try to.map { text throws(QueryError) in try Self.date(text, option: "--to") }
    if let fromDate, let toDate, fromDate > toDate {
      throw .invalid("--from must not be after --to")
    }
    if let field = searchIn.first(where: { !Self.searchFields.contains($0) }) {
      throw .invalid(
        "--search-in takes \(Self.searchFields.joined(separator: ",")) (comma-separated); got '\(field)'"
      )
    }
    for (option, list) in [("--domains", domains), ("--exclude-domains", excludeDomains)] {
      if let bad = list.first(where: { !Self.isDomain($0) }) {
        throw .invalid("\(option) takes domain names such as bbc.co.uk; got '\(bad)'")
      }
    }
    try QueryPaging.validate(pageSize: pageSize, page: page)
  }

  /// The query string items, in a stable order.
  var queryItems: [(String, String)] {
    var items: [(String, String)] = [("q", words)]
    if let language { items.append(("language", language.lowercased())) }
    if let sortBy { items.append(("sortBy", sortBy)) }
    if let from { items.append(("from", from)) }
    if let to { items.append(("to", to)) }
    if !domains.isEmpty { items.append(("domains", domains.joined(separator: ","))) }
    if !excludeDomains.isEmpty {
      items.append(("excludeDomains", excludeDomains.joined(separator: ",")))
    }
    if !searchIn.isEmpty { items.append(("searchIn", searchIn.joined(separator: ","))) }
    items += QueryPaging.queryItems(pageSize: pageSize, page: page)
    return items
  }

  /// Identifies the query in the store, so that stored results stand in only for the same query.
  public var storageKey: String {
    "newsapi everything " + queryItems.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
  }

  private static func date(_ text: String, option: String) throws(QueryError) -> Double {
    guard let date = ISO8601.date(from: text) else {
      throw .invalid(
        "\(option) must be an ISO 8601 date or date-time, e.g. 2024-05-01 or 2024-05-01T12:00:00Z; got '\(text)'"
      )
    }
    return date.timeIntervalSince1970
  }

  private static func isDomain(_ text: String) -> Bool {
    let labels = text.split(separator: ".", omittingEmptySubsequences: false)
    return labels.count >= 2
      && labels.allSatisfy { label in
        !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
          && label.unicodeScalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == "-" }
      }
  }
}
