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

/// An id sent as a number or as a string.
struct FlexibleID: Decodable {
  var text: String

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let number = try? container.decode(Int.self) {
      text = String(number)
    } else {
      text = try container.decode(String.self)
    }
  }
}
