import FeedParsing
import Foundation

/// Fetches an article's page and extracts the article from it (``ArticleExtractor``), keeping
/// the result beside the article in the store: a second request for it, or one `--offline`,
/// is answered from there. The page goes through the one transport (size cap, redirect rules,
/// per-host limits) within the source deadline; it is untrusted input like any feed.
public struct FullTextService: Sendable {
  let transport: HTTPTransport
  let deadline: Deadline
  let store: ArticleStore
  let now: @Sendable () -> Date
  /// The extraction rules of each feed source, by name.
  let rules: [String: ExtractionRules]
  /// Pages fetched at once by ``fetchMissing(_:)``.
  let concurrency: Int

  /// What `Accept` asks for: a page.
  static let accept = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5"

  /// The full text of `article`: kept, else (unless `offline`) fetched, extracted and kept.
  ///
  /// - Throws: ``FullTextError`` (no article in the page, not a page, no link, not kept while
  ///   offline, an error status), the transport's errors.
  public func fullText(of article: Article, offline: Bool = false, refresh: Bool = false)
    async throws -> FullText
  {
    if !refresh, let kept = try store.fullText(of: article.id) { return kept }
    if offline { throw FullTextError.notKept(id: article.id) }
    guard let link = article.url, let url = URL.web(link) else {
      throw FullTextError.noLink(id: article.id)
    }
    let transport = self.transport
    let rules = self.rules[article.provider] ?? ExtractionRules()
    // Fetching and extracting both run under the deadline: a page that is slow to extract ends
    // with it (the extraction then goes on alone until it ends, and is let go).
    let (page, extracted) = try await deadline.run {
      () async throws -> (URL, ExtractedArticle) in
      let response = try await transport.get(url, headers: ["Accept": Self.accept])
      guard response.succeeded else {
        throw FullTextError.status(
          url: url.absoluteString, code: response.status, attempts: response.attempts)
      }
      let page = response.url ?? url
      let type = response.headers["content-type"]
      if let type, !Self.isPage(type) {
        throw FullTextError.notAPage(url: page.absoluteString, type: type)
      }
      guard
        let extracted = ArticleExtractor.extract(
          response.body, url: page, contentType: type, rules: rules)
      else { throw FullTextError.noArticle(url: page.absoluteString) }
      return (page, extracted)
    }
    let text = FullText(url: page.absoluteString, extractedAt: now(), extracted: extracted)
    try store.keepFullText(text, for: article.id)
    return text
  }

  /// Whether a `Content-Type` is a page (HTML or XHTML; text/plain is tried too).
  static func isPage(_ type: String) -> Bool {
    let base =
      type.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
      ?? ""
    return base.isEmpty || base == "text/html" || base == "application/xhtml+xml"
      || base == "text/plain" || base.hasSuffix("+xml") && base.contains("html")
  }

  /// Fetches the full text of each of `articles` that has none kept, `concurrency` pages at
  /// once; returns how many were kept and, for each that failed, why (it is tried again the
  /// next time, and never fails what asked).
  public func fetchMissing(_ articles: [Article]) async -> (
    kept: Int, failures: [(article: Article, reason: String)]
  ) {
    func describe(_ error: any Error) -> String {
      (error as? any NewsError)?.message ?? "\(error)"
    }
    let have: Set<String>
    do {
      have = try store.fullTexts(among: articles.map(\.id))
    } catch {
      return (0, articles.prefix(1).map { ($0, "full texts not fetched: " + describe(error)) })
    }
    let missing = articles.filter { !have.contains($0.id) && $0.url != nil }
    guard !missing.isEmpty else { return (0, []) }
    var kept = 0
    var failures: [(article: Article, reason: String)] = []
    await withTaskGroup(of: (Article, String?).self) { group in
      var next = missing.makeIterator()
      func start() {
        guard let article = next.next() else { return }
        group.addTask {
          do {
            _ = try await fullText(of: article)
            return (article, nil)
          } catch {
            return (article, "full text of \(article.id) not fetched: " + describe(error))
          }
        }
      }
      for _ in 0..<concurrency { start() }
      for await (article, failure) in group {
        if let failure { failures.append((article, failure)) } else { kept += 1 }
        start()
      }
    }
    return (kept, failures)
  }
}
