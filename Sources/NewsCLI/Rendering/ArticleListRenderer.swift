import FeedParsing
import Foundation
import NewsCore

/// The numbered list `headlines` prints on a terminal or in a pipe.
struct ArticleListRenderer {
  /// Longer titles and descriptions are cut (with `…`) in lists; `show` and JSON have them whole.
  static let maximumTitle = 300
  static let maximumDescription = 1000

  var style: Style
  var width: Int
  var now: Date
  /// How the articles of a provider are laid out.
  var layout: @Sendable (String) -> ArticleLayout
  /// The ids of the articles read: their titles are dim instead of bold.
  var read: Set<String> = []
  /// Whether an article without an image says `[no image]` (the headlines lists).
  var imagePlaceholder = true
  /// The ids of the search results found in their kept full text only (said under them).
  var matchedInFullText: Set<String> = []
  /// The audio and video each article carries, by id: a line each, as `news feed` lists them.
  var enclosures: [String: [Enclosure]] = [:]

  /// Header line, then each article: title, source · time · author, wrapped description, image.
  ///
  /// - Parameter unread: how many of the whole list are unread, said in the header.
  func render(_ page: ArticleList, heading: String, countSuffix: String = "", unread: Int? = nil)
    -> String
  {
    // A heading may echo what the user typed (search words) or a source's name: made inert.
    let heading = TerminalSanitizer.clean(heading)
    let shown = page.articles.count
    let counts =
      "\(shown) of \(page.totalResults)\(countSuffix)" + (unread.map { " · \($0) unread" } ?? "")
    var text: String
    if TextWrapper.columns((heading + " · " + counts)[...]) <= width {
      text = style.bold(heading) + style.dim(" · " + counts) + "\n"
    } else {
      // A narrow terminal: the counts go under the heading.
      text = TextWrapper.wrap(heading, width: width).map { style.bold($0) + "\n" }.joined()
      text += style.dim(counts) + "\n"
    }
    if page.articles.isEmpty {
      return text + "\nNo articles.\n"
    }
    let numberWidth = String(shown).count
    let indent = String(repeating: " ", count: numberWidth + 2)
    for (offset, article) in page.articles.enumerated() {
      let number = String(offset + 1)
      let label = String(repeating: " ", count: numberWidth - number.count) + number + ". "
      text += "\n"
      let titleLines = TextWrapper.wrap(
        TextWrapper.shortened(
          clean(article.title, html: article.textMayHoldHTML), to: Self.maximumTitle),
        width: width - indent.count)
      let isRead = read.contains(article.id)
      for (index, line) in titleLines.enumerated() {
        text += (index == 0 ? label : indent) + (isRead ? style.dim(line) : style.bold(line)) + "\n"
      }
      switch layout(article.provider) {
      case .release:
        // The design: title, two lines of description, image.
        let html = article.textMayHoldHTML
        if let description = article.description.map({ cleanKeepingLines($0, html: html) }),
          !description.isEmpty
        {
          for line in TextWrapper.firstLines(description, width: width - indent.count, count: 2) {
            text += indent + line + "\n"
          }
        }
        text += image(article, indent: indent)
        continue
      case .dated:
        // The design: headline, then the day it was last updated in light grey.
        if let updated = article.publishedAt {
          text += indent + style.grey(DayFormat.long(updated)) + "\n"
        }
        continue
      case .standard:
        break
      }
      let meta = [
        article.publisher.map(clean),
        article.publishedAt.map { RelativeTime.describe($0, now: now) },
        article.author.map { "by " + clean($0, html: article.textMayHoldHTML) },
      ].compactMap { $0 }.filter { !$0.isEmpty }
      if !meta.isEmpty {
        for line in TextWrapper.wrap(meta.joined(separator: " · "), width: width - indent.count) {
          text += indent + style.dim(line) + "\n"
        }
      }
      if let description = article.description.map({ clean($0, html: article.textMayHoldHTML) }),
        !description.isEmpty
      {
        let shortened = TextWrapper.shortened(description, to: Self.maximumDescription)
        for line in TextWrapper.wrap(shortened, width: width - indent.count) {
          text += indent + line + "\n"
        }
      }
      if matchedInFullText.contains(article.id) {
        text += indent + style.dim("matched in its full text") + "\n"
      }
      for enclosure in enclosures[article.id] ?? [] where enclosure.isMedia {
        text += indent + style.dim(EnclosureText.line(enclosure)) + "\n"
      }
      text += image(article, indent: indent)
    }
    return text
  }

  /// The image line: its URL, the placeholder, or (without a placeholder) nothing.
  private func image(_ article: Article, indent: String) -> String {
    if let url = article.imageURL { return indent + style.cyan(clean(url)) + "\n" }
    return imagePlaceholder ? indent + style.cyan("[no image]") + "\n" : ""
  }

  private func clean(_ text: String) -> String {
    TerminalSanitizer.clean(HTMLText.plain(text))
  }

  /// Cleaned as the article's provider needs: HTML only where it may be (see
  /// `Article.textMayHoldHTML`).
  private func clean(_ text: String, html: Bool) -> String {
    TerminalSanitizer.clean(html ? HTMLText.plain(text) : text)
  }

  /// Cleaned, with the text's own line breaks kept (they count as lines of the description).
  private func cleanKeepingLines(_ text: String, html: Bool) -> String {
    TerminalSanitizer.clean(html ? HTMLText.plain(text) : text, keepNewlines: true)
  }
}
