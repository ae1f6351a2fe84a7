import FeedParsing
import Foundation

/// BBC-style headlines (`NEWS_BBC_URL`), in the order the server gives them. Fetched by
/// ``PageProvider/bbc``.
public enum BBCDecoder {
  static func decode(_ body: Data, fetchedAt: Date) throws(ProviderError) -> ArticleList {
    let response: BBCResponse
    do {
      response = try JSONDecoder().decode(BBCResponse.self, from: body)
    } catch {
      throw .undecodable(provider: SourceName.bbc, detail: DecodingErrorDescription.describe(error))
    }
    var skipped = response.headlines.failures
    var articles: [Article] = []
    for item in response.headlines.elements {
      guard let headline = item.headline.nonEmpty else {
        skipped.append("a headline is missing")
        continue
      }
      articles.append(
        Article(
          id: SourceName.bbc + "-" + StableHash.hex(headline), provider: SourceName.bbc,
          title: headline,
          description: item.introduction.nonEmpty,
          publishedAt: (item.updated ?? item.firstPublished).flatMap(Self.date)))
    }
    articles = articles.uniquedByID()
    guard !articles.isEmpty else {
      throw .undecodable(
        provider: SourceName.bbc,
        detail: response.headlines.count == 0
          ? "an empty list" : "no usable headline (\(skipped.prefix(3).joined(separator: "; ")))")
    }
    var page = ArticleList(
      provider: SourceName.bbc, totalResults: articles.count, articles: articles,
      fetchedAt: fetchedAt)
    if let warning = SkippedItems.warning(
      "the bbc API", skipped: skipped, of: response.headlines.count)
    {
      page.warnings.append(warning)
    }
    return page
  }

  /// Epoch seconds as a date; values beyond ±10^11 s (about year 5000) are nonsense and treated as
  /// absent, so that no later calendar arithmetic can overflow (found by fuzzing).
  static func date(_ seconds: Double) -> Date? {
    guard seconds.isFinite, abs(seconds) < 1e11 else { return nil }
    return Date(timeIntervalSince1970: seconds)
  }
}
