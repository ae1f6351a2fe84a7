/// An article's full text could not be had.
public enum FullTextError: NewsError, Equatable {
  /// The page holds no article (a home page, a login wall): what the feed had is shown.
  case noArticle(url: String)
  /// The page is not HTML (a PDF, an image).
  case notAPage(url: String, type: String)
  /// The article has no link to fetch.
  case noLink(id: String)
  /// `--offline`, and no full text was kept for it.
  case notKept(id: String)
  /// The page answered with an error status.
  case status(url: String, code: Int, attempts: Int)

  public var message: String {
    switch self {
    case .noArticle(let url):
      return "no article found in \(url) (a home page or a login wall?): showing what the feed had"
    case .notAPage(let url, let type):
      return "\(url) is not a web page (\(type)): showing what the feed had"
    case .noLink(let id):
      return "article \(id) has no link to fetch its full text from"
    case .notKept(let id):
      return "no full text kept for \(id)"
    case .status(let url, let code, let attempts):
      return
        "\(url) answered \(HTTPError.status(code))\(HTTPError.after(attempts))"
    }
  }

  public var advice: Advice? {
    if case .notKept(let id) = self { return .fetchFullText(id: id) }
    return nil
  }

  public var exitCode: ExitCode {
    switch self {
    case .noArticle, .notAPage, .noLink: .dataError
    case .notKept, .status: .unavailable
    }
  }
}
