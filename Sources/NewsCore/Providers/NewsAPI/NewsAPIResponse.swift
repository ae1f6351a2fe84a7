import FeedParsing

/// newsapi.org's response body, field for field (the wire format; see ``Article`` for the domain).
struct NewsAPIResponse: Decodable {
  struct Source: Decodable {
    var id: String?
    var name: String?
  }

  struct WireArticle: Decodable {
    var source: Source?
    var author: String?
    var title: String?
    var description: String?
    var url: String?
    var urlToImage: String?
    var publishedAt: String?
    var content: String?
  }

  var status: String
  var totalResults: Int?
  var articles: LenientList<WireArticle>?
  var code: String?
  var message: String?
}
