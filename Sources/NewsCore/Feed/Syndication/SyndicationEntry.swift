/// One entry of a syndication feed, its text already plain (HTML turned into text where the feed
/// said, or showed, it was HTML), its links absolute where the document allowed.
struct SyndicationEntry: Sendable, Equatable {
  var title: String?
  var link: String?
  /// RSS `guid`, Atom `id`, RDF `rdf:about`: what the feed calls the entry, whatever it is.
  var guid: String?
  /// The guid is the entry's permanent link (`isPermaLink` not `false`, and a web address).
  var guidIsLink = false
  var summary: String?
  var content: String?
  /// The content with its images marked in place (`[image: alt]`), for reading it in full.
  var body: String?
  var author: String?
  /// The entry's dates as written, best first: published, then updated, then created.
  var dates: [String] = []
  var imageURL: String?
  /// How many elements the entry had in the document (0 for JSON Feed).
  var elementCount = 0

  /// Whether the entry is kept: it had any element at all, or holds something beyond an id.
  var isKept: Bool {
    elementCount > 0 || title != nil || link != nil || summary != nil || content != nil
      || author != nil || !dates.isEmpty || imageURL != nil
  }
}
