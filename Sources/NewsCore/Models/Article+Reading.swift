import FeedParsing

extension Article {
  /// What the article's page shows, in order: its description, unless its content begins with
  /// it (a description made from the content: shown once), then its content.
  public var readingTexts: [String] {
    guard let content else { return description.map { [$0] } ?? [] }
    guard let description else { return [content] }
    let summary = Self.folded(description)
    let lead = summary.hasSuffix("…") ? String(summary.dropLast()) : summary
    return Self.folded(content).hasPrefix(lead) ? [content] : [description, content]
  }

  /// Words only, one space between: line breaks, quote marks, bullets, a numbered list's marks
  /// (`2.`), unbreakable spaces and the content's numbered link marks (`story[1]`) do not count
  /// when two texts are compared.
  private static func folded(_ text: String) -> String {
    text.split { $0.isWhitespace || $0 == "\u{A0}" }
      .filter { $0 != ">" && $0 != "•" && !isNumberMark($0) }
      .map(withoutLinkMarks).joined(separator: " ")
  }

  /// `12.`: how an item of a numbered list begins.
  private static func isNumberMark(_ word: Substring) -> Bool {
    word.count > 1 && word.last == "." && word.dropLast().allSatisfy { $0.isASCII && $0.isNumber }
  }

  /// `word` without the `[n]` marks the content puts after a link's text (`HTMLText.content`).
  private static func withoutLinkMarks(_ word: Substring) -> Substring {
    guard word.contains("[") else { return word }
    var kept = ""
    var start = word.startIndex
    for mark in LinkMark.marks(in: word) {
      kept += word[start..<mark.range.lowerBound]
      start = mark.range.upperBound
    }
    return Substring(kept + word[start...])
  }
}

extension Article {
  /// The article as shown with its full text: the extracted text as its content (the feed's
  /// summary then left out), and what the page says where the feed said nothing.
  public func showing(_ fullText: FullText) -> Article {
    var article = self
    article.content = fullText.text
    article.description = nil
    if article.provider == SourceName.url || article.title.isEmpty, let title = fullText.title {
      article.title = title
    }
    article.author = article.author ?? fullText.byline
    article.publisher = article.publisher ?? fullText.siteName
    article.imageURL = article.imageURL ?? fullText.imageURL
    article.publishedAt = article.publishedAt ?? fullText.publishedAt
    return article
  }
}
