/// JSON Feed 1.0 and 1.1 (https://jsonfeed.org), field for field.
struct JSONFeed: Decodable {
  struct Author: Decodable {
    var name: String?
  }

  struct Item: Decodable {
    var id: FlexibleID?
    var url: String?
    var externalURL: String?
    var title: String?
    var summary: String?
    var contentText: String?
    var contentHTML: String?
    var image: String?
    var bannerImage: String?
    var datePublished: String?
    var dateModified: String?
    var author: Author?
    var authors: [Author]?

    enum CodingKeys: String, CodingKey {
      case id, url, title, summary, image, author, authors
      case externalURL = "external_url"
      case contentText = "content_text"
      case contentHTML = "content_html"
      case bannerImage = "banner_image"
      case datePublished = "date_published"
      case dateModified = "date_modified"
    }

    var entry: SyndicationEntry {
      SyndicationEntry(
        title: title, link: url ?? externalURL, summary: summary,
        content: contentHTML ?? contentText, author: (authors?.first ?? author)?.name,
        published: datePublished ?? dateModified, imageURL: image ?? bannerImage)
    }
  }

  /// `https://jsonfeed.org/version/1` or `/1.1`.
  var version: String
  /// The feed's name.
  var title: String?
  var items: LenientList<Item>
}
