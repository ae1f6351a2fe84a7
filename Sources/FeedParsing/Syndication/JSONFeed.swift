import Foundation

/// JSON Feed 1.0 and 1.1 (https://jsonfeed.org), field for field: `content_html` (HTML) and
/// `content_text` (plain), `summary`, 1.1's `authors` and 1.0's `author`, `date_published` then
/// `date_modified`, `url` then `external_url`, `image` then `banner_image`.
package struct JSONFeed: Decodable {
  package struct Author: Decodable {
    package var name: String?
  }

  /// A JSON Feed attachment: `url`, `mime_type`, `size_in_bytes`, `duration_in_seconds`.
  package struct Attachment: Decodable {
    package var url: String
    package var mimeType: String?
    package var sizeInBytes: Double?
    package var durationInSeconds: Double?

    package enum CodingKeys: String, CodingKey {
      case url
      case mimeType = "mime_type"
      case sizeInBytes = "size_in_bytes"
      case durationInSeconds = "duration_in_seconds"
    }
  }

  package struct Item: Decodable {
    package var id: FlexibleID?
    package var url: String?
    package var externalURL: String?
    package var title: String?
    package var summary: String?
    package var contentText: String?
    package var contentHTML: String?
    package var image: String?
    package var bannerImage: String?
    package var datePublished: String?
    package var dateModified: String?
    package var author: Author?
    package var authors: LenientList<Author>?
    package var attachments: LenientList<Attachment>?
    package var tags: LenientList<String>?

    package enum CodingKeys: String, CodingKey {
      case id, url, title, summary, image, author, authors, attachments, tags
      case externalURL = "external_url"
      case contentText = "content_text"
      case contentHTML = "content_html"
      case bannerImage = "banner_image"
      case datePublished = "date_published"
      case dateModified = "date_modified"
    }

    /// The item as an entry, its links resolved against `base`.
    package func entry(base: URL?) -> SyndicationEntry {
      let content =
        contentHTML.map(HTMLText.plain).flatMap(\.nonEmptyText)
        ?? contentText.map(HTMLText.tidy).flatMap(\.nonEmptyText)
      var entry = SyndicationEntry()
      // Plain text by the specification; HTML in fact often enough to be guessed at.
      entry.title = title.flatMap { FeedDocumentParser.line(FeedTextKind.guess.plain($0)) }
      entry.link = (url ?? externalURL).map { FeedLinks.resolve($0, against: base) }?.nonEmptyText
      entry.guid = id?.text
      entry.summary = summary.map(HTMLText.tidy).flatMap(\.nonEmptyText) ?? content
      entry.content = content
      entry.body =
        contentHTML.map { HTMLText.content($0, base: base) }.flatMap(\.nonEmptyText) ?? content
      entry.author = (authors?.elements.first ?? author)?.name.flatMap {
        FeedDocumentParser.line($0)
      }
      entry.dates = [datePublished, dateModified].compactMap { $0 }
      for tag in tags?.elements ?? [] { entry.addCategory(tag) }
      entry.imageURL =
        (image ?? bannerImage).map { FeedLinks.resolve($0, against: base) }?
        .nonEmptyText
      for attachment in attachments?.elements ?? [] {
        let url = FeedLinks.resolve(attachment.url, against: base)
        guard FeedLinks.isWebLink(url), !entry.enclosures.contains(where: { $0.url == url })
        else { continue }
        entry.enclosures.append(
          Enclosure(
            url: url, type: attachment.mimeType?.lowercased(),
            length: attachment.sizeInBytes.flatMap { $0 > 0 ? Int(exactly: $0.rounded()) : nil },
            duration: attachment.durationInSeconds.flatMap {
              $0 >= 0 && $0 < 1e9 ? Int($0) : nil
            }))
      }
      return entry
    }
  }

  /// `https://jsonfeed.org/version/1` or `/1.1`.
  package var version: String
  /// The feed's name.
  package var title: String?
  /// The site the feed is of.
  package var homePageURL: String?
  package var items: LenientList<Item>

  package enum CodingKeys: String, CodingKey {
    case version, title, items
    case homePageURL = "home_page_url"
  }

  /// The feed in `data` as a document.
  package static func document(from data: Data, base: URL?) throws(FeedDocumentParser.Failure)
    -> FeedDocument
  {
    let feed: JSONFeed
    do {
      feed = try JSONDecoder().decode(JSONFeed.self, from: data)
    } catch {
      throw FeedDocumentParser.Failure(
        detail: "not a JSON Feed: " + DecodingErrorDescription.describe(error))
    }
    guard feed.version.lowercased().contains("jsonfeed.org/version/") else {
      throw FeedDocumentParser.Failure(detail: "not a JSON Feed (version)")
    }
    var notes: [String] = []
    if !feed.items.failures.isEmpty {
      let count = feed.items.failures.count
      notes.append(
        count == 1
          ? "1 item that is not a JSON Feed item left out"
          : "\(count) items that are not JSON Feed items left out")
    }
    var document = FeedDocument(
      title: feed.title.flatMap { FeedDocumentParser.line($0) },
      entries: feed.items.elements.map { $0.entry(base: base) }, notes: notes)
    if let site = feed.homePageURL.map({ FeedLinks.resolve($0, against: base) }),
      FeedLinks.isWebLink(site)
    {
      document.site = site
    }
    return document
  }
}

extension String {
  /// The string, or `nil` when it is blank.
  fileprivate var nonEmptyText: String? { Optional(self).nonEmpty }
}
