/// One entry of a syndication feed, its text already plain (HTML turned into text where the feed
/// said, or showed, it was HTML), its links absolute where the document allowed.
package struct SyndicationEntry: Sendable, Equatable {
  package var title: String?
  package var link: String?
  /// RSS `guid`, Atom `id`, RDF `rdf:about`: what the feed calls the entry, whatever it is.
  package var guid: String?
  /// The guid is the entry's permanent link (`isPermaLink` not `false`, and a web address).
  package var guidIsLink = false
  package var summary: String?
  package var content: String?
  /// The content with its images marked in place (`[image: alt]`), for reading it in full.
  package var body: String?
  package var author: String?
  /// The entry's dates as written, best first: published, then updated, then created.
  package var dates: [String] = []
  package var imageURL: String?
  /// Its enclosures (podcast episodes, attachments), in the feed's order, once a URL.
  package var enclosures: [Enclosure] = []
  /// The entry's categories as the feed names them (RSS `<category>`, Atom `category term`,
  /// `dc:subject`, JSON Feed `tags`), each once, in order (``addCategory(_:)``).
  package var categories: [String] = []
  /// How many elements the entry had in the document (0 for JSON Feed).
  package var elementCount = 0

  /// The entry with every text cleaned of terminal escape sequences and control characters
  /// (C0 but line breaks, C1, bidirectional overrides): a feed is untrusted, and what it says is
  /// stored and printed, in JSON too, only once cleaned.
  package var sanitized: SyndicationEntry {
    func line(_ text: String?) -> String? { text.map { TerminalSanitizer.clean($0) }.nonEmpty }
    func lines(_ text: String?) -> String? {
      text.map { TerminalSanitizer.clean($0, keepNewlines: true) }.nonEmpty
    }
    var entry = self
    entry.title = line(title)
    entry.link = line(link)
    entry.guid = line(guid)
    entry.summary = lines(summary)
    entry.content = lines(content)
    entry.body = lines(body)
    entry.author = line(author)
    entry.imageURL = line(imageURL)
    entry.enclosures = enclosures.map { enclosure in
      var clean = enclosure
      clean.url = TerminalSanitizer.clean(enclosure.url)
      clean.type = line(enclosure.type)
      return clean
    }
    entry.dates = dates.compactMap(line)
    entry.categories = categories.compactMap(line)
    return entry
  }

  /// At most this many categories an entry, each at most ``longestCategory`` characters.
  package static let mostCategories = 32
  package static let longestCategory = 200

  /// Adds `name` (trimmed, on one line) unless it is empty, there already (ignoring case) or
  /// past ``mostCategories``.
  package mutating func addCategory(_ name: String) {
    let words = name.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    let clean = String(words.prefix(Self.longestCategory))
    guard !clean.isEmpty, categories.count < Self.mostCategories,
      !categories.contains(where: { $0.caseInsensitiveCompare(clean) == .orderedSame })
    else { return }
    categories.append(clean)
  }

  /// Whether the entry is kept: it had any element at all, or holds something beyond an id.
  package var isKept: Bool {
    elementCount > 0 || title != nil || link != nil || summary != nil || content != nil
      || author != nil || !dates.isEmpty || imageURL != nil
  }
}
