import FeedParsing
import Foundation

/// The articles API (`NEWS_ARTICLES_URL`): one list of articles with release dates, newest
/// release first (undated ones last, in the API's order). Fetched by ``PageProvider/articles``.
public enum ArticlesDecoder {
  static func decode(_ body: Data, fetchedAt: Date) throws(ProviderError) -> ArticleList {
    let list: LenientList<ArticlesResponseItem>
    do {
      list = try JSONDecoder().decode(LenientList<ArticlesResponseItem>.self, from: body)
    } catch {
      throw .undecodable(
        provider: SourceName.articles, detail: DecodingErrorDescription.describe(error))
    }
    var skipped = list.failures
    var articles: [Article] = []
    for item in list.elements {
      guard let title = item.title.nonEmpty else {
        skipped.append("item \(item.id.text) has no title")
        continue
      }
      articles.append(
        Article(
          id: SourceName.articles + "-" + item.id.text, provider: SourceName.articles, title: title,
          description: item.description.nonEmpty, author: item.author.nonEmpty,
          imageURL: item.image.nonEmpty, publishedAt: item.releaseDate.flatMap(releaseDate)))
    }
    articles = articles.uniquedByID()
    guard !articles.isEmpty else {
      throw .undecodable(
        provider: SourceName.articles,
        detail: list.count == 0
          ? "an empty list" : "no usable article (\(skipped.prefix(3).joined(separator: "; ")))")
    }
    var page = ArticleList(
      provider: SourceName.articles, totalResults: articles.count, articles: newestFirst(articles),
      fetchedAt: fetchedAt)
    if let warning = SkippedItems.warning("the articles API", skipped: skipped, of: list.count) {
      page.warnings.append(warning)
    }
    return page
  }

  /// Sorted by date, newest first; undated articles keep their order after the dated ones.
  static func newestFirst(_ articles: [Article]) -> [Article] {
    articles.enumerated().sorted { lhs, rhs in
      switch (lhs.element.publishedAt, rhs.element.publishedAt) {
      case (let l?, let r?): return l != r ? l > r : lhs.offset < rhs.offset
      case (.some, nil): return true
      case (nil, .some): return false
      case (nil, nil): return lhs.offset < rhs.offset
      }
    }.map(\.element)
  }

  /// `M/d/yyyy` (`6/25/2018`) at 00:00 UTC; `nil` when it is not a real day.
  public static func releaseDate(_ text: String) -> Date? {
    let parts = text.trimmingCharacters(in: .whitespaces).split(
      separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 3,
      parts.allSatisfy({ !$0.isEmpty && $0.unicodeScalars.allSatisfy(\.isASCIIDigit) }),
      let month = Int(parts[0]), let day = Int(parts[1]), let year = Int(parts[2]),
      parts[2].count == 4, (1...12).contains(month),
      (1...CivilDate.daysIn(month: month, year: year)).contains(day)
    else { return nil }
    let days = CivilDate(year: year, month: month, day: day).daysSinceEpoch
    return Date(timeIntervalSince1970: Double(days) * 86_400)
  }
}
