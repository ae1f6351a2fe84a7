import Foundation

/// Reads RSS 0.9x/2.0, RSS 1.0 (RDF), Atom 1.0 and 0.3 (and CDF's `<item href>`) from whatever
/// bytes a server sends.
///
/// ## Why a tokenizer of our own
/// The first reader was `XMLParser` (libxml2 through FoundationXML), strict by design: on a
/// corpus of 1,226 real and edge-case feeds it showed items for 19% of them, because one
/// undeclared `&nbsp;`, a bare `&` in a link, a tag left open or an unexpected charset refused the
/// whole document, and it needed workarounds for crashes found by fuzzing (names that were not
/// UTF-8, empty processing instructions). libxml2's recovering mode is not reachable through
/// FoundationXML. So, as sfeed and newsraft do, ``XMLTokenizer`` reads the bytes once, left to
/// right, building no tree: it never refuses a document, knows HTML's entities, expands no
/// entity a document declares and loads nothing external (no XXE, no entity bomb), and is linear
/// in the document (attributes per element and nesting depth are capped, and counted). On the
/// same documents, bytes in to items out, it is 1.6–2.6 times as fast as the `XMLParser` path was
/// (Benchmarks/README.md, "The feed reader").
///
/// This type turns its tokens into entries: namespaces by URI (``FeedNamespaces``), `xml:base`
/// on every element, text constructs by their declared or guessed kind (``FeedTextKind``), links
/// chosen by RFC 4287 (``FeedLinks``), and only an entry's own elements (never those of its
/// `atom:source`, `image` or `textinput`).
package struct FeedDocumentParser {
  /// Why a document is not a feed.
  package struct Failure: Error, Equatable {
    package var detail: String
  }

  /// Elements nested deeper than this are ignored (counted in the notes).
  package static let maximumDepth = 256

  /// The feed in `data`, served from `origin`.
  package static func parse(_ data: Data, origin: FeedOrigin = FeedOrigin()) throws(Failure)
    -> FeedDocument
  {
    let charset = FeedCharset.charset(ofContentType: origin.contentType)
    let text = FeedCharset.decode(data, httpCharset: charset)
    var parser = FeedDocumentParser(base: origin.url)
    var tokenizer = XMLTokenizer(Array(text.utf8))
    var tokens = 0
    while let token = tokenizer.next() {
      parser.consume(token)
      tokens &+= 1
      // Reading runs under the source's deadline: a cancelled read stops within a few thousand
      // tokens instead of finishing a document nobody waits for.
      if tokens & 4095 == 0, Task.isCancelled { throw Failure(detail: "reading it was cancelled") }
    }
    parser.finishDocument()
    guard let root = parser.root else { throw Failure(detail: "not an RSS or Atom feed") }
    guard Self.roots.contains(root) || !parser.document.entries.isEmpty else {
      // An HTML page (`html`, `xhtml:html`): a web page that announces no feed.
      if root == "html" || root.hasSuffix(":html") {
        throw Failure(detail: "a web page, not a feed, and it links to no feed")
      }
      throw Failure(detail: "not an RSS or Atom feed (its root element is <\(root.prefix(40))>)")
    }
    if tokenizer.droppedAttributes > 0 {
      parser.document.notes.append(
        "\(tokenizer.droppedAttributes) attributes past \(XMLTokenizer.maximumAttributes) on one element ignored"
      )
    }
    if parser.tooDeep > 0 {
      parser.document.notes.append(
        "\(parser.tooDeep) elements nested deeper than \(maximumDepth) ignored")
    }
    return parser.document
  }

  /// The root elements of the formats read (an unknown root is still read if it holds entries).
  private static let roots: Set<String> = ["rss", "rdf:rdf", "feed", "channel"]

  /// Whether `name` (lower case) is the root element of a feed format read here: a document so
  /// rooted is a feed, whatever else was asked of it (an OPML file to import).
  package static func isFeedRoot(_ name: String) -> Bool { roots.contains(name) }

  private struct Frame {
    package var name: String
    package var base: URL?
    package var declared: Int
    /// Whether the document set ``base`` (`xml:base` here or above), rather than it being the
    /// document's own address.
    package var explicitBase = false
  }

  /// The rank of a title found in a category's `image`: below every title of the entry's own.
  private static let categoryTitleRank = 9

  /// What a captured element's text is for.
  private enum Field {
    case title(Int)
    case summary(Int)
    case content
    case link
    case guid(permalink: Bool, resolved: Bool)
    case date(Int)
    case author(Int)
    case feedTitle(Int)
    /// RSS's channel `<link>`: the site.
    case feedLink
    case feedTTL
    case updatePeriod
    case updateFrequency
    /// `itunes:duration`: the length of the entry's enclosure.
    case duration
    /// RSS `<category>`, `dc:subject`: one of the entry's categories.
    case category

    /// Whether the element's own text is what it holds and its children are parts of it, read
    /// apart (an author's `name` and `email`; an `image` in a category, whose `title` names
    /// an entry that has no title of its own, as feedparser reads it).
    var hasParts: Bool {
      switch self {
      case .author, .category: return true
      default: return false
      }
    }
  }

  /// The element whose text is being gathered, with the markup of its children.
  private struct Capture {
    package var field: Field
    package var element: String
    package var kind: FeedTextKind
    package var base64: Bool
    package var base: URL?
    package var nested = 0
    package var text = ""
    package var markup = false
    /// The child element whose text is being read, each child's text (``Field/hasParts``), and
    /// all of it in order.
    package var child: String?
    package var parts: [String: String] = [:]
    package var partsText = ""
  }

  /// An entry being read.
  private struct EntryBuilder {
    package var entry = SyndicationEntry()
    package var titleRank = Int.max
    package var summaryRank = Int.max
    /// A second summary (`description` then `summary`, or `media:description` beside a
    /// `description`): the entry's content when it has none, as feedparser reads it.
    package var secondSummary: (text: String, body: String?)?
    /// The summary read as content is (links numbered, lists bulleted, images marked), when
    /// that shows more than its plain text: the entry's body when it has no other.
    package var summaryBody: String?
    package var authorRank = Int.max
    package var links: [FeedLinks.Candidate] = []
    package var textLink: String?
    package var permalink: String?
    package var cdfLink: String?
    package var dates: [(rank: Int, text: String)] = []
    /// `itunes:duration`, for the enclosures that say none themselves.
    package var duration: Int?
  }

  private var document = FeedDocument()
  private var root: String?
  private var isAtom = false
  private var feedTitleRank = Int.max
  private var frames: [Frame] = []
  private var namespaces = FeedNamespaces()
  private var entry: EntryBuilder?
  private var entryDepth = 0
  private var capture: Capture?
  private var tooDeep = 0
  private let documentBase: URL?

  private init(base: URL?) {
    documentBase = base
  }

  private mutating func consume(_ token: XMLToken) {
    switch token {
    case .start(let tag):
      if capture != nil { captureStart(tag) } else { start(tag) }
    case .end(let name):
      if capture != nil { captureEnd(name) } else { end(name) }
    case .text(let text):
      if capture != nil { captureText(text) }
    case .cdata(let text):
      if capture != nil { captureText(text) }
    }
  }

  /// Ends what the document left open (a document cut short keeps what it had).
  private mutating func finishDocument() {
    if capture != nil { finishCapture() }
    while !frames.isEmpty { popFrame() }
  }

  // MARK: elements

  private mutating func start(_ tag: XMLStartTag) {
    guard frames.count < Self.maximumDepth else {
      tooDeep += 1
      return
    }
    let declared = namespaces.push(tag.attributes)
    let name = namespaces.canonical(tag.name)
    let parentBase = frames.last?.base ?? documentBase
    // `xml:base`, or CDF's `BASE` on its root `<CHANNEL>` (as feedparser reads it).
    let cdfBase = root == nil && name == "channel" ? tag.attribute("base") : nil
    let base =
      (tag.attribute("xml:base") ?? cdfBase).map { FeedLinks.base($0, against: parentBase) }
      ?? parentBase
    let explicit =
      (tag.attribute("xml:base") ?? cdfBase) != nil || frames.last?.explicitBase == true
    frames.append(Frame(name: name, base: base, declared: declared, explicitBase: explicit))
    if root == nil {
      root = name
      isAtom = name == "feed"
    }
    if entry == nil, name == "item" || name == "entry" {
      var builder = EntryBuilder()
      if let about = tag.attribute("rdf:about") ?? tag.attribute("about") {
        builder.entry.guid = Optional(about).nonEmpty
      }
      // CDF: `<item href="…" lastmod="…">`.
      if let href = tag.attribute("href") {
        builder.cdfLink = Optional(FeedLinks.resolve(href, against: base)).nonEmpty
      }
      if let modified = tag.attribute("lastmod").nonEmpty { builder.dates.append((1, modified)) }
      entry = builder
      entryDepth = frames.count
    } else if entry != nil {
      entryElement(name, tag, base: base)
    } else {
      feedElement(name, tag, base: base)
    }
    if tag.selfClosing {
      if capture != nil { finishCapture() }
      popFrame()
    }
  }

  private mutating func end(_ written: String) {
    let name = namespaces.canonical(written)
    guard let position = frames.lastIndex(where: { $0.name == name }) else { return }
    while frames.count > position { popFrame() }
  }

  private mutating func popFrame() {
    let frame = frames.removeLast()
    namespaces.pop(frame.declared)
    if entry != nil, frames.count < entryDepth { finishEntry() }
  }

  /// The channel's (or feed's) own title, and the site it is of.
  private mutating func feedElement(_ name: String, _ tag: XMLStartTag, base: URL?) {
    guard frames.count >= 2, ["channel", "feed"].contains(frames[frames.count - 2].name) else {
      return
    }
    switch name {
    case "title": begin(.feedTitle(0), tag, fallback: isAtom ? .text : .guess)
    case "dc:title": begin(.feedTitle(1), tag, fallback: .guess)
    case "link" where document.site == nil:
      guard let href = tag.attribute("href") else {
        begin(.feedLink, tag, fallback: .text)
        return
      }
      // Atom: the alternate page (no rel is alternate), not `self` nor another format's.
      let rel = tag.attribute("rel")?.lowercased() ?? "alternate"
      let type = tag.attribute("type")?.lowercased() ?? "text/html"
      if rel == "alternate", type.contains("html") { site(FeedLinks.resolve(href, against: base)) }
    case "ttl": begin(.feedTTL, tag, fallback: .text)
    case "sy:updateperiod": begin(.updatePeriod, tag, fallback: .text)
    case "sy:updatefrequency": begin(.updateFrequency, tag, fallback: .text)
    default: break
    }
  }

  /// The feed's site, when `link` is an absolute web link and none was found before.
  private mutating func site(_ link: String) {
    if document.site == nil, FeedLinks.isWebLink(link) { document.site = link }
  }

  private mutating func entryElement(_ name: String, _ tag: XMLStartTag, base: URL?) {
    entry?.entry.elementCount += 1
    let direct = frames.count == entryDepth + 1
    // Images and media text anywhere in the entry (media:group nests them).
    switch name {
    case "enclosure":
      if tag.attribute("type")?.lowercased().hasPrefix("image/") == true {
        image(tag.attribute("url") ?? tag.attribute("href"), base: base)
      }
      enclosure(
        tag.attribute("url") ?? tag.attribute("href"), type: tag.attribute("type"),
        length: tag.attribute("length"), duration: nil, base: base)
    case "media:content":
      if tag.attribute("medium") == "image"
        || tag.attribute("type")?.lowercased().hasPrefix("image/") == true
      {
        image(tag.attribute("url"), base: base)
      }
      var type = tag.attribute("type")
      if type == nil, let medium = tag.attribute("medium"), ["audio", "video"].contains(medium) {
        type = medium + "/*"
      }
      enclosure(
        tag.attribute("url"), type: type, length: tag.attribute("filesize"),
        duration: tag.attribute("duration"), base: base)
    case "itunes:duration":
      begin(.duration, tag, fallback: .text)
    case "media:thumbnail":
      image(tag.attribute("url"), base: base)
    case "itunes:image":
      image(tag.attribute("href") ?? tag.attribute("url"), base: base)
    case "media:title":
      begin(.title(3), tag, fallback: .guess)
    case "media:description":
      begin(.summary(4), tag, fallback: .guess)
    default:
      break
    }
    guard direct else { return }
    switch name {
    case "title": begin(.title(0), tag, fallback: isAtom ? .text : .guess)
    case "dc:title": begin(.title(1), tag, fallback: .guess)
    case "link": link(tag, base: base)
    case "guid", "id":
      let permalink = tag.attribute("ispermalink")?.lowercased() != "false"
      // Under an `xml:base` the document set, a relative id is resolved against it, as
      // feedparser resolves ids (an id on the document's own address is kept as written:
      // `<guid>1234</guid>` is no path).
      begin(
        .guid(permalink: permalink, resolved: frames.last?.explicitBase == true), tag,
        fallback: .text)
    case "description": begin(.summary(0), tag, fallback: .html)
    case "summary", "abstract": begin(.summary(0), tag, fallback: isAtom ? .text : .guess)
    // The first of these is the summary, whichever it is (as feedparser reads them).
    case "dc:description", "dcterms:abstract": begin(.summary(0), tag, fallback: .html)
    case "itunes:summary": begin(.summary(0), tag, fallback: .guess)
    case "itunes:subtitle": begin(.summary(3), tag, fallback: .guess)
    case "content:encoded", "fullitem": begin(.content, tag, fallback: .html)
    case "content": begin(.content, tag, fallback: isAtom ? .text : .html)
    case "xhtml:body", "body": begin(.content, tag, fallback: .xhtml)
    case "author": begin(.author(0), tag, fallback: .text)
    case "dc:creator", "dc:author": begin(.author(1), tag, fallback: .text)
    case "itunes:author": begin(.author(2), tag, fallback: .text)
    case "category":
      // Atom names it in `term` (feedparser's `tags[].term`); RSS in its text.
      if let term = tag.attribute("term") {
        entry?.entry.addCategory(term)
      } else {
        begin(.category, tag, fallback: .text)
      }
    case "dc:subject": begin(.category, tag, fallback: .text)
    case "pubdate", "published", "issued", "dcterms:issued", "dcterms:available":
      begin(.date(0), tag, fallback: .text)
    case "updated", "modified", "dc:date", "dcterms:modified", "dcterms:date":
      begin(.date(1), tag, fallback: .text)
    case "created", "dcterms:created": begin(.date(2), tag, fallback: .text)
    default: break
    }
  }

  private mutating func link(_ tag: XMLStartTag, base: URL?) {
    guard let href = tag.attribute("href") ?? tag.attribute("url") ?? tag.attribute("uri") else {
      begin(.link, tag, fallback: .text)
      return
    }
    let candidate = FeedLinks.candidate(
      rel: tag.attribute("rel"), type: tag.attribute("type"),
      href: FeedLinks.resolve(href, against: base))
    entry?.links.append(candidate)
    if candidate.rel == "enclosure" {
      if candidate.type.hasPrefix("image/") { image(candidate.href, base: nil) }
      enclosure(
        candidate.href, type: tag.attribute("type"), length: tag.attribute("length"),
        duration: nil, base: nil)
    }
  }

  /// An enclosure of the entry (once a URL: `media:content` often repeats an `enclosure`).
  private mutating func enclosure(
    _ url: String?, type: String?, length: String?, duration: String?, base: URL?
  ) {
    guard let url = url.nonEmpty else { return }
    let resolved = FeedLinks.resolve(url, against: base)
    guard FeedLinks.isWebLink(resolved) else { return }
    let found = Enclosure(
      url: resolved, type: type.nonEmpty?.lowercased(), length: Enclosure.bytes(length),
      duration: duration.flatMap(Enclosure.seconds))
    guard var enclosures = entry?.entry.enclosures else { return }
    if let index = enclosures.firstIndex(where: { $0.url == resolved }) {
      // What the first did not say, the repeat may.
      enclosures[index].type = enclosures[index].type ?? found.type
      enclosures[index].length = enclosures[index].length ?? found.length
      enclosures[index].duration = enclosures[index].duration ?? found.duration
    } else {
      enclosures.append(found)
    }
    entry?.entry.enclosures = enclosures
  }

  private mutating func image(_ url: String?, base: URL?) {
    guard entry?.entry.imageURL == nil, let url = url.nonEmpty else { return }
    entry?.entry.imageURL = FeedLinks.resolve(url, against: base)
  }

  private mutating func finishEntry() {
    guard var builder = entry else { return }
    entry = nil
    builder.entry.link =
      (FeedLinks.choose(
        builder.links, text: builder.textLink, permalink: builder.permalink) ?? builder.cdfLink)
      .nonEmpty
    // A link no reader can open (`javascript:`, `mailto:`) gives way to a permanent guid that is
    // a web address.
    if let link = builder.entry.link, !FeedLinks.isWebLink(link), let permalink = builder.permalink,
      FeedLinks.isWebLink(permalink)
    {
      builder.entry.link = permalink
    }
    builder.entry.guidIsLink = builder.permalink != nil
    if let duration = builder.duration {
      for index in builder.entry.enclosures.indices
      where builder.entry.enclosures[index].duration == nil
        && builder.entry.enclosures[index].isMedia
      {
        builder.entry.enclosures[index].duration = duration
      }
    }
    if builder.entry.content == nil, let second = builder.secondSummary {
      builder.entry.content = second.text
      builder.entry.body = second.body
    } else if builder.entry.content == nil {
      // A summary of links, lists or images and no other text: shown as content is.
      builder.entry.body = builder.summaryBody
    }
    // Published, then updated, then created; of two of a kind, the later one.
    builder.entry.dates = builder.dates.enumerated()
      .sorted { ($0.element.rank, -$0.offset) < ($1.element.rank, -$1.offset) }
      .map(\.element.text)
    document.entries.append(builder.entry)
  }

  // MARK: text

  private mutating func begin(_ field: Field, _ tag: XMLStartTag, fallback: FeedTextKind) {
    guard !tag.selfClosing else { return }
    let (kind, base64) = FeedTextKind.declared(by: tag, fallback: fallback)
    capture = Capture(
      field: field, element: tag.name.lowercased(), kind: kind, base64: base64,
      base: frames.last?.base)
  }

  private mutating func captureStart(_ tag: XMLStartTag) {
    guard var capture else { return }
    self.capture = nil
    if tag.name.lowercased() == capture.element, !tag.selfClosing { capture.nested += 1 }
    let local = Self.localName(tag.name)
    if capture.field.hasParts {
      capture.child = tag.selfClosing ? nil : local
    } else {
      capture.markup = true
      capture.text += "<" + local
      for attribute in tag.attributes where !attribute.name.hasPrefix("xmlns") {
        capture.text +=
          " " + Self.localName(attribute.name) + "=\""
          + XMLEscaping.escaped(attribute.value, quotes: true) + "\""
      }
      capture.text += tag.selfClosing ? "/>" : ">"
    }
    self.capture = capture
  }

  private mutating func captureEnd(_ name: String) {
    guard var capture else { return }
    self.capture = nil
    if name.lowercased() == capture.element {
      if capture.nested == 0 {
        self.capture = capture
        finishCapture()
        end(name)
        return
      }
      capture.nested -= 1
    }
    if capture.field.hasParts {
      capture.child = nil
    } else {
      capture.text += "</" + Self.localName(name) + ">"
    }
    self.capture = capture
  }

  private mutating func captureText(_ text: String) {
    guard var capture else { return }
    self.capture = nil
    if capture.field.hasParts, let child = capture.child {
      capture.parts[child, default: ""] += text
      capture.partsText += text + " "
    } else if capture.kind == .xhtml || (capture.markup && capture.kind != .html) {
      // Markup's text is text (`&lt;b&gt;` stays `<b>` to read), but in an element declared
      // HTML whose markup came unescaped (Typepad's `<div>` in `type="html"`), the text is HTML
      // as the rest of it is, as feedparser reads it.
      capture.text += XMLEscaping.escaped(text, quotes: false)
    } else {
      capture.text += text
    }
    self.capture = capture
  }

  private mutating func finishCapture() {
    guard let capture else { return }
    self.capture = nil
    var raw = capture.text
    if capture.base64 { raw = FeedTextKind.base64Decoded(raw) ?? "" }
    let kind: FeedTextKind = capture.markup ? .xhtml : capture.kind
    let trimmed = String(raw.trimmingWhitespace())
    switch capture.field {
    case .feedTitle(let rank):
      guard rank < feedTitleRank, let title = Self.line(kind.plain(raw)) else { return }
      document.title = title
      feedTitleRank = rank
    case .feedLink:
      site(FeedLinks.resolve(trimmed, against: capture.base))
    case .duration:
      entry?.duration = Enclosure.seconds(trimmed)
    case .category:
      // Its own text; one that has none (`dc:subject` holding an `rdf:Bag`) is its children's.
      let own = kind.plain(raw)
      entry?.entry.addCategory(
        own.allSatisfy(\.isWhitespace) ? kind.plain(capture.partsText) : own)
      if let title = capture.parts["title"].flatMap(Self.line),
        Self.categoryTitleRank
          < entry?.titleRank ?? 0
      {
        entry?.entry.title = title
        entry?.titleRank = Self.categoryTitleRank
      }
    case .feedTTL:
      document.ttlMinutes = Int(trimmed).flatMap { (1...525_600).contains($0) ? $0 : nil }
    case .updatePeriod:
      document.updatePeriod = trimmed
    case .updateFrequency:
      document.updateFrequency = Int(trimmed).flatMap { $0 > 0 ? $0 : nil }
    case .title(let rank):
      guard rank < entry?.titleRank ?? 0, let title = Self.line(kind.plain(raw)) else { return }
      entry?.entry.title = title
      entry?.titleRank = rank
    case .summary(let rank):
      guard let text = Optional(kind.plain(raw)).nonEmpty else { return }
      guard rank < entry?.summaryRank ?? 0 else {
        if rank == 0 || rank == 4, entry?.secondSummary == nil, text != entry?.entry.summary {
          entry?.secondSummary = (
            text, Optional(kind.plain(raw, images: true, base: capture.base)).nonEmpty
          )
        }
        return
      }
      entry?.entry.summary = text
      entry?.summaryRank = rank
      entry?.summaryBody =
        kind != .text && HTMLText.hasContentMarkup(raw)
        ? Optional(kind.plain(raw, images: true, base: capture.base)).nonEmpty : nil
    case .content:
      guard entry?.entry.content == nil else { return }
      entry?.entry.content = Optional(kind.plain(raw)).nonEmpty
      entry?.entry.body = Optional(kind.plain(raw, images: true, base: capture.base)).nonEmpty
    case .link:
      // `&amp;` written once too often in a link's query is a common mistake.
      let link =
        trimmed.containsByte(UInt8(ascii: "&"))
        ? trimmed.replacingOccurrences(of: "&amp;", with: "&") : trimmed
      if !link.isEmpty {
        entry?.textLink = FeedLinks.resolve(link, against: capture.base)
      }
    case .guid(let permalink, let resolved):
      guard !trimmed.isEmpty else { return }
      let relative = !FeedLinks.isAbsolute(trimmed) && !trimmed.contains(":")
      let id =
        permalink && resolved && relative
        ? FeedLinks.resolve(trimmed, against: capture.base) : trimmed
      if entry?.entry.guid == nil { entry?.entry.guid = id }
      // A permanent link: a URI, a path on the document's host (`/2024/post`), or one resolved
      // against the document's `xml:base`.
      if permalink, FeedLinks.isAbsolute(id) || trimmed.hasPrefix("/"), entry?.permalink == nil {
        entry?.permalink = FeedLinks.permalink(FeedLinks.resolve(id, against: capture.base))
      }
    case .date(let rank):
      if !trimmed.isEmpty { entry?.dates.append((rank, trimmed)) }
    case .author(let rank):
      guard rank < entry?.authorRank ?? 0,
        let name = Self.personName(
          name: capture.parts["name"], email: capture.parts["email"], text: raw)
      else { return }
      entry?.entry.author = name
      entry?.authorRank = rank
    }
  }

  // MARK: helpers

  /// Atom's `name` if given; else RSS's `email (Name)` or `Name <email>` as the name; else the
  /// e-mail address.
  package static func personName(name: String?, email: String?, text: String) -> String? {
    if let name = line(HTMLText.tidy(name ?? "")) { return name }
    var rest = HTMLText.tidy(text)
    var address = email.flatMap { line($0) }
    // Most names hold no `@`: its byte is looked for before its character.
    if rest.containsByte(UInt8(ascii: "@")), let at = rest.firstIndex(of: "@") {
      let separators: Set<Character> = [" ", "(", ")", "<", ">", "\n", "\t"]
      let start =
        rest[..<at].lastIndex(where: separators.contains).map(rest.index(after:))
        ?? rest.startIndex
      let end = rest[at...].firstIndex(where: separators.contains) ?? rest.endIndex
      address = address ?? String(rest[start..<end])
      rest.removeSubrange(start..<end)
      rest = rest.replacingOccurrences(of: "()", with: "").replacingOccurrences(of: "<>", with: "")
    }
    var trimmed = Substring(rest.trimmingWhitespace())
    if trimmed.hasPrefix("(") { trimmed = trimmed.dropFirst() }
    if trimmed.hasSuffix(")") { trimmed = trimmed.dropLast() }
    if trimmed.hasPrefix("mailto:") { trimmed = trimmed.dropFirst(7) }
    return line(String(trimmed)) ?? address
  }

  /// The text on one line, white space runs made one space; `nil` when blank.
  package static func line(_ text: String) -> String? {
    if let ascii = ASCIIWhitespace.collapsed(text) { return ascii.isEmpty ? nil : ascii }
    let words = text.split(whereSeparator: \.isWhitespace)
    return words.isEmpty ? nil : words.joined(separator: " ")
  }

  /// `xhtml:p` → `p`.
  private static func localName(_ name: String) -> String {
    guard let colon = name.lastIndex(of: ":") else { return name }
    return String(name[name.index(after: colon)...])
  }

}
