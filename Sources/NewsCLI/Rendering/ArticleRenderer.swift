import FeedParsing
import Foundation
import NewsCore

/// One article in full, as `news show` prints it.
struct ArticleRenderer {
  var style: Style
  var width: Int
  var unicode: Bool
  var timeZone: TimeZone
  /// How the article's provider lays its articles out.
  var layout: ArticleLayout

  func render(
    _ article: Article, likes: Int?, comments: Int?, showCounts: Bool, fullText: FullText? = nil,
    enclosures: [Enclosure] = []
  ) -> String {
    switch layout {
    case .release: return renderRelease(article)
    case .dated: return renderBBC(article)
    case .standard: break
    }
    var text = ""
    for line in TextWrapper.wrap(clean(article.title, html: article.textMayHoldHTML), width: width)
    {
      text += style.bold(line) + "\n"
    }
    let meta = [
      article.publisher.map(clean),
      article.author.map { "by " + clean($0, html: article.textMayHoldHTML) },
    ]
    .compactMap { $0 }.filter { !$0.isEmpty }
    if !meta.isEmpty {
      for line in TextWrapper.wrap(meta.joined(separator: " · "), width: width) {
        text += style.dim(line) + "\n"
      }
    }
    if let published = article.publishedAt {
      text += style.dim("Published " + localTime(published)) + "\n"
    }
    if !article.categories.isEmpty {
      let filed = "Filed under " + article.categories.map { clean($0) }.joined(separator: ", ")
      for line in TextWrapper.wrap(filed, width: width) { text += style.dim(line) + "\n" }
    }
    if let fullText {
      let site = fullText.siteName.map { " from " + clean($0) } ?? ""
      text += style.dim("Full text\(site) · \(fullText.words.counted("word"))") + "\n"
    }
    for body in article.readingTexts {
      let cleaned = TerminalSanitizer.clean(
        article.textMayHoldHTML ? HTMLText.plain(body) : body, keepNewlines: true)
      guard !cleaned.isEmpty else { continue }
      text += "\n" + TextWrapper.wrap(cleaned, width: width).joined(separator: "\n") + "\n"
    }
    text += "\n"
    if let url = article.url { text += "Read:  " + style.cyan(clean(url)) + "\n" }
    // The image's URL when there is one (the placeholder is the headlines list's).
    if let image = article.imageURL { text += "Image: " + style.cyan(clean(image)) + "\n" }
    for enclosure in enclosures {
      text += "File:  " + style.cyan(EnclosureText.line(enclosure)) + "\n"
    }
    if showCounts {
      let likesText = likes.map(String.init) ?? "unavailable"
      let commentsText = comments.map(String.init) ?? "unavailable"
      text +=
        unicode
        ? "♥ \(likesText) · 💬 \(commentsText)\n"
        : "likes: \(likesText) · comments: \(commentsText)\n"
    }
    text += style.dim("id: " + clean(article.id)) + "\n"
    return text
  }

  /// An article of the articles API: image, title, full description, author, release date.
  private func renderRelease(_ article: Article) -> String {
    var text = "Image: " + (article.imageURL.map { style.cyan(clean($0)) } ?? "[no image]") + "\n\n"
    for line in TextWrapper.wrap(clean(article.title), width: width) {
      text += style.bold(line) + "\n"
    }
    if let description = article.description {
      let cleaned = TerminalSanitizer.clean(HTMLText.plain(description), keepNewlines: true)
      text += "\n" + TextWrapper.wrap(cleaned, width: width).joined(separator: "\n") + "\n"
    }
    text += "\n"
    if let author = article.author { text += "Author:   " + clean(author) + "\n" }
    if let released = article.publishedAt {
      text += "Released: " + DayFormat.compact(released) + "\n"
    }
    return text + style.dim("id: " + clean(article.id)) + "\n"
  }

  /// A BBC headline: headline (bold), last updated (light grey), introduction (regular).
  private func renderBBC(_ article: Article) -> String {
    var text = ""
    for line in TextWrapper.wrap(clean(article.title), width: width) {
      text += style.bold(line) + "\n"
    }
    if let updated = article.publishedAt {
      text += style.grey("Last updated " + DayFormat.long(updated)) + "\n"
    }
    if let introduction = article.description {
      text +=
        "\n" + TextWrapper.wrap(clean(introduction), width: width).joined(separator: "\n") + "\n"
    }
    return text + style.dim("id: " + clean(article.id)) + "\n"
  }

  /// `Thu 17 Feb 2022 10:00 CET`, in the reader's time zone.
  func localTime(_ date: Date) -> String {
    Self.localTime(date, in: timeZone)
  }

  /// `Thu 17 Feb 2022 10:00 CET`, in `timeZone` (also `news browse`'s article screen).
  static func localTime(_ date: Date, in timeZone: TimeZone) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = timeZone
    formatter.dateFormat = "EEE d MMM yyyy HH:mm zzz"
    return formatter.string(from: date)
  }

  private func clean(_ text: String) -> String {
    TerminalSanitizer.clean(HTMLText.plain(text))
  }

  /// Cleaned as the article's provider needs: HTML only where it may be (see
  /// `Article.textMayHoldHTML`).
  private func clean(_ text: String, html: Bool) -> String {
    TerminalSanitizer.clean(html ? HTMLText.plain(text) : text)
  }
}
