/// One entry of a syndication feed, as the feed wrote it (text still HTML where it was).
struct SyndicationEntry: Sendable, Equatable {
  var title: String?
  var link: String?
  var summary: String?
  var content: String?
  var author: String?
  var published: String?
  var imageURL: String?
}
