import FeedParsing

/// BBC-style headlines: `{"headlines":[{"headline","updated","introduction"}]}`, `updated` (and,
/// in a variant, `first-published`) in epoch seconds.
struct BBCResponse: Decodable {
  struct Headline: Decodable {
    var headline: String?
    var updated: Double?
    var introduction: String?
    var firstPublished: Double?

    enum CodingKeys: String, CodingKey {
      case headline, updated, introduction
      case firstPublished = "first-published"
    }
  }

  var headlines: LenientList<Headline>
}
