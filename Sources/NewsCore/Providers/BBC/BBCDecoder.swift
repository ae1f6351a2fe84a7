import Foundation

/// BBC-style headlines (`NEWS_BBC_URL`), in the order the server gives them. Fetched by
/// ``PageClient/bbc(url:transport:now:)``.
public enum BBCDecoder {
  static func decode(_ body: Data, fetchedAt: Date) throws(ProviderError) -> HeadlinesPage {
    let response: BBCResponse
    do {
      response = try JSONDecoder().decode(BBCResponse.self, from: body)
    } catch {
      throw .undecodable(provider: "bbc", detail: DecodingErrorDescription.describe(error))
    }
    let articles = response.headlines.compactMap { item -> Article? in
      guard let headline = item.headline.nonEmpty else { return nil }
      return Article(
        id: "bbc-" + StableHash.hex(headline), provider: "bbc", title: headline,
        description: item.introduction.nonEmpty,
        publishedAt: (item.updated ?? item.firstPublished).flatMap(Self.date))
    }
    return HeadlinesPage(
      provider: "bbc", totalResults: articles.count, articles: articles, fetchedAt: fetchedAt)
  }

  /// Epoch seconds as a date; values beyond ±10^11 s (about year 5000) are nonsense and treated as
  /// absent, so that no later calendar arithmetic can overflow (found by fuzzing).
  static func date(_ seconds: Double) -> Date? {
    guard seconds.isFinite, abs(seconds) < 1e11 else { return nil }
    return Date(timeIntervalSince1970: seconds)
  }
}
