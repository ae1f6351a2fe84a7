import Foundation

/// How a web page that has no feed is read as one (`"html": {"items": "article", "title": "h2",
/// "link": "h2 a", "date": "time@datetime", "content": ".summary"}`): the items are the
/// elements `items` selects, and each field is read inside one of them by a selector of the
/// extraction rules' language (``CSSSelector``), its text, or with `@name` an attribute's value
/// (`time@datetime`; `@href` alone is the item's own attribute). Left out, the title is the
/// item's first heading (else its first link's text) and the link its first `<a href>`.
package struct PageSelectors: Sendable, Equatable {
  /// One field: where it is inside an item, and which attribute holds it (`nil`: its text).
  package struct Field: Sendable, Equatable {
    /// As written, for messages.
    package var text: String
    /// `nil`: the item itself.
    package var selector: CSSSelector?
    package var attribute: String?

    /// Reads `selector@attribute`, `selector` or `@attribute`.
    package init(_ text: String) throws(CSSSelector.Failure) {
      self.text = text
      var selectorText = text
      if let at = text.lastIndex(of: "@") {
        let name = text[text.index(after: at)...]
        if !name.isEmpty,
          name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_:".contains($0)) })
        {
          attribute = name.lowercased()
          selectorText = String(text[..<at])
        }
      }
      if selectorText.trimmingWhitespace().isEmpty {
        guard attribute != nil else { throw CSSSelector.Failure(detail: "is empty") }
      } else {
        selector = try CSSSelector(selectorText)
      }
    }

    /// The elements of `item` it reads (the item itself without a selector).
    func elements(in item: HTMLElement) -> [HTMLElement] {
      selector.map { $0.select(in: item) } ?? [item]
    }

    /// Its value in `item`: the first element's attribute or text that is not blank.
    func value(in item: HTMLElement) -> String? {
      for element in elements(in: item) {
        let value = attribute.map { element[$0] } ?? element.text
        if let value, !value.trimmingWhitespace().isEmpty {
          return String(value.trimmingWhitespace())
        }
      }
      return nil
    }
  }

  package var items: Field
  package var title: Field?
  package var link: Field?
  package var date: Field?
  package var content: Field?
  /// A date pattern (`dd.MM.yyyy HH:mm`, as Unicode's date patterns write it) for dates that
  /// are not RFC 3339, RFC 822 or seconds since 1970; read in UTC unless it has a zone.
  package var dateFormat: String?

  package init(
    items: Field, title: Field? = nil, link: Field? = nil, date: Field? = nil,
    content: Field? = nil, dateFormat: String? = nil
  ) {
    self.items = items
    self.title = title
    self.link = link
    self.date = date
    self.content = content
    self.dateFormat = dateFormat
  }

  /// One item read from a page.
  package struct Entry: Sendable, Equatable {
    package var title: String
    /// Absolute (resolved against the page and its `<base href>`).
    package var link: String?
    package var date: Date?
    /// The date as the page wrote it, when it could not be read.
    package var unreadDate: String?
    /// Plain text, its links numbered and listed (as an article's content).
    package var content: String?
    /// The same text without the links' numbers (for lists).
    package var summary: String?
  }

  /// Why a page gave no items.
  package struct Failure: Error, Equatable {
    package var detail: String
  }

  /// The items of the page `data`, served from `origin`.
  ///
  /// - Throws: ``Failure`` saying which selector matched nothing when no item can be read.
  package func read(_ data: Data, origin: FeedOrigin) throws(Failure) -> (
    title: String?, entries: [Entry]
  ) {
    let html = ArticleExtractor.decode(data, contentType: origin.contentType)
    let root = HTMLTreeBuilder.parse(html)
    var base = origin.url
    if let href = root.first(named: "base")?["href"], !href.trimmingWhitespace().isEmpty {
      base = FeedLinks.base(href, against: origin.url)
    }
    let elements = items.elements(in: root)
    guard !elements.isEmpty else {
      throw Failure(detail: "the items selector '\(items.text)' matched nothing on the page")
    }
    var entries: [Entry] = []
    for element in elements {
      let link = (link?.value(in: element) ?? Self.firstLink(in: element)).map {
        FeedLinks.resolve($0, against: base)
      }
      let titleText = title.map { $0.value(in: element) } ?? Self.defaultTitle(element)
      guard let titleText else { continue }
      var entry = Entry(title: titleText, link: link)
      if let written = date?.value(in: element) {
        entry.date = parseDate(written)
        if entry.date == nil { entry.unreadDate = written }
      }
      if let content {
        let parts = content.elements(in: element)
        if !parts.isEmpty {
          let html = ArticleSerializer.html(parts, base: base).html
          let text = HTMLText.content(html, base: base)
          entry.content = text.trimmingWhitespace().isEmpty ? nil : text
          entry.summary = entry.content.map { _ in HTMLText.plain(html) }
        }
      }
      entries.append(entry)
    }
    guard !entries.isEmpty else {
      let selected = "the \(elements.count.counted("item")) '\(items.text)' selected"
      throw Failure(
        detail: title.map {
          "the title selector '\($0.text)' matched nothing inside any of \(selected)"
        }
          ?? "none of \(selected) has a heading or a link to title it: name its title with --title")
    }
    let title = root.first(named: "title")?.text
    return (title.flatMap { $0.isEmpty ? nil : $0 }, entries)
  }

  /// The item's first heading, else its first link's text (the item's own, when it is one).
  private static func defaultTitle(_ item: HTMLElement) -> String? {
    let headings = ["h1", "h2", "h3", "h4", "h5", "h6"]
    for candidate in item.descendants where headings.contains(candidate.name) {
      let text = candidate.text
      if !text.isEmpty { return text }
    }
    return ([item] + item.descendants).first { $0.name == "a" && !$0.text.isEmpty }?.text
  }

  /// The item's first `<a href>` (the item itself when it is one).
  private static func firstLink(in item: HTMLElement) -> String? {
    if item.name == "a", let href = item["href"], !href.isEmpty { return href }
    return item.descendants.first { $0.name == "a" && !($0["href"] ?? "").isEmpty }?["href"]
  }

  /// RFC 3339, RFC 822 and the forms feeds use (``FeedDate``), seconds since 1970, or
  /// ``dateFormat``.
  func parseDate(_ text: String) -> Date? {
    if let dateFormat {
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.timeZone = TimeZone(identifier: "UTC")
      formatter.dateFormat = dateFormat
      if let date = formatter.date(from: text) { return date }
    }
    // Seconds since 1970 (9 to 11 digits: 1973 to 5138), before the compact ISO forms.
    if (9...11).contains(text.count), let seconds = Int(text), seconds > 0 {
      return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
    return FeedDate.parse(text)
  }
}
