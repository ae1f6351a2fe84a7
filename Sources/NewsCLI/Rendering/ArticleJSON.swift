import FeedParsing
import Foundation
import NewsCore

/// The `--json` documents: a public contract, documented in docs/json.md. Additive changes only.
enum ArticleJSON {
  /// The version of the documents' shape.
  static let schemaVersion = 1

  /// ARTICLE: `{"id","provider","title","description","author","source","url","imageUrl",
  /// "publishedAt","content","categories","read"}`, `null` where absent (`categories` empty).
  static func article(_ article: Article, read: Bool, extra: [(String, JSONValue)] = [])
    -> JSONValue
  {
    .object(
      [
        ("id", .string(article.id)),
        ("provider", .string(article.provider)),
        ("title", .string(article.title)),
        ("description", .string(article.description)),
        ("author", .string(article.author)),
        ("source", .string(article.publisher)),
        ("url", .string(article.url)),
        ("imageUrl", .string(article.imageURL)),
        ("publishedAt", .date(article.publishedAt)),
        ("content", .string(article.content)),
        ("categories", .array(article.categories.map { .string($0) })),
        ("read", .bool(read)),
        // ITEM's keys, with the same meaning (#47.2): a list entry has one shape everywhere.
        ("subtitle", .string(article.description)),
        ("sources", .array([.string(article.provider)])),
      ] + extra)
  }

  /// `article` as a document of its own: `schemaVersion` first (`news show --json`).
  static func document(_ article: JSONValue) -> JSONValue {
    guard case .object(let members) = article else { return article }
    return .object([("schemaVersion", .int(schemaVersion))] + members)
  }

  /// A search's `"matchedIn"`: `"fullText"` when only the article's kept full text holds the
  /// words, else `"article"`; nothing for other lists.
  static func matchedIn(_ id: String, fullText: Set<String>?) -> [(String, JSONValue)] {
    guard let fullText else { return [] }
    return [("matchedIn", .string(fullText.contains(id) ? "fullText" : "article"))]
  }

  /// FULLTEXT: `{"url","title","byline","siteName","excerpt","imageUrl","publishedAt",
  /// "extractedAt","words"}`, what `show --full` adds to its ARTICLE as `"fullText"`.
  static func fullText(_ text: FullText) -> JSONValue {
    .object([
      ("url", .string(text.url)), ("title", .string(text.title)),
      ("byline", .string(text.byline)), ("siteName", .string(text.siteName)),
      ("excerpt", .string(text.excerpt)), ("imageUrl", .string(text.imageURL)),
      ("publishedAt", .date(text.publishedAt)), ("extractedAt", .date(text.extractedAt)),
      ("words", .int(text.words)),
    ])
  }

  /// The list document of `headlines` (and `search`):
  /// `{"schemaVersion","provider","totalResults","fetchedAt","stale","articles"}`, plus `"error"`
  /// when stale data stands in for a failed request.
  static func list(
    _ page: ArticleList, read: Set<String>, stale: Bool = false, error: String? = nil,
    matchedInFullText: Set<String>? = nil, enclosures: [String: [Enclosure]] = [:]
  ) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("schemaVersion", .int(schemaVersion)),
      ("provider", .string(page.provider)),
      ("totalResults", .int(page.totalResults)),
      ("fetchedAt", .date(page.fetchedAt)),
      ("stale", .bool(stale)),
    ]
    if let error { members.append(("error", .string(error))) }
    members.append(
      (
        "articles",
        .array(
          page.articles.map {
            article(
              $0, read: read.contains($0.id),
              extra: [("enclosures", EnclosureText.json(enclosures[$0.id] ?? []))]
                + matchedIn($0.id, fullText: matchedInFullText))
          })
      ))
    return .object(members)
  }
}
