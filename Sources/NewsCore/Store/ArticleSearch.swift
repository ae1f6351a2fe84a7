import Foundation

/// Case- and diacritic-insensitive search over titles, descriptions and content.
public enum ArticleSearch {
  /// The articles containing every one of `words`, newest first (undated last).
  public static func matching(_ words: [String], in articles: [Article]) -> [Article] {
    let needles = words.map(fold).filter { !$0.isEmpty }
    guard !needles.isEmpty else { return [] }
    return articles.filter { article in
      let haystack = fold(
        [article.title, article.description ?? "", article.content ?? ""].joined(separator: "\n"))
      return needles.allSatisfy { haystack.contains($0) }
    }.sorted { lhs, rhs in
      switch (lhs.publishedAt, rhs.publishedAt) {
      case (let l?, let r?): return l != r ? l > r : lhs.id < rhs.id
      case (.some, nil): return true
      case (nil, .some): return false
      case (nil, nil): return lhs.id < rhs.id
      }
    }
  }

  private static func fold(_ text: String) -> String {
    text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
  }
}
