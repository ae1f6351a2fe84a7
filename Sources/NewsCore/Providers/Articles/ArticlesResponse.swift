import FeedParsing

/// The articles API's items, field for field: `release_date` as `M/d/yyyy`, `author` an e-mail.
struct ArticlesResponseItem: Decodable {
  /// The API sends numbers; strings are accepted too.
  var id: FlexibleID
  var title: String?
  var description: String?
  var author: String?
  var releaseDate: String?
  var image: String?

  enum CodingKeys: String, CodingKey {
    case id, title, description, author, image
    case releaseDate = "release_date"
  }
}
