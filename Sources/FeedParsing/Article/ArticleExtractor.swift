import Foundation

/// Finds the article in a page, in the manner of Mozilla's Readability: boilerplate removed
/// (navigation, headers and footers, share and subscribe widgets, ads, comments, related lists,
/// cookie banners, hidden elements, scripts and styles), paragraphs scored into their
/// ancestors, the best one taken with the siblings that belong to it, then cleaned of what
/// scores badly inside it. Metadata comes from `<meta>` and JSON-LD (``ArticleMetadata``).
package enum ArticleExtractor {
  /// A pass whose text is shorter than this, in characters (UTF-16 units, as Readability's
  /// `charThreshold` counts them), is run again with fewer flags.
  package static let minimumLength = 500
  /// An article of fewer words than this is taken from the page's JSON-LD `articleBody` when
  /// that is longer.
  package static let minimumWords = 60

  /// A pass whose text is more than this share links is taken only when no pass finds text
  /// of its own; one of more than ``onlyLinks`` never is (a page that is only links holds no
  /// article). Readability returns teasers that are links; `news` prefers any text of the
  /// page's own.
  package static let maximumLinkDensity = 0.5
  package static let onlyLinks = 0.9

  /// Pages of more elements than this get one pass, not Readability's retries.
  package static let maximumElementsRetried = 50_000

  /// The text of a page's bytes: the HTTP charset, then `<meta charset>` or `http-equiv`, then
  /// the rules the feed reader uses (``FeedCharset``).
  package static func decode(_ data: Data, contentType: String?) -> String {
    let label = FeedCharset.charset(ofContentType: contentType) ?? declaredCharset(data)
    return FeedCharset.decode(data, httpCharset: label)
  }

  /// The charset a page declares in its first 1,024 bytes.
  static func declaredCharset(_ data: Data) -> String? {
    let head = String(decoding: data.prefix(1024), as: UTF8.self).lowercased()
    var searchStart = head.startIndex
    while let meta = head.range(of: "<meta", range: searchStart..<head.endIndex) {
      let end = head[meta.upperBound...].firstIndex(of: ">") ?? head.endIndex
      let tag = head[meta.upperBound..<end]
      if let charset = tag.range(of: "charset") {
        let rest = tag[charset.upperBound...].drop {
          $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'"
        }
        let name = rest.prefix { !"\"'; />".contains($0) }
        if !name.isEmpty { return String(name) }
      }
      searchStart = end
    }
    return nil
  }

  /// The article in the page `data` served from `url`; `nil` when the page holds none.
  package static func extract(
    _ data: Data, url: URL?, contentType: String? = nil, rules: ExtractionRules = ExtractionRules()
  ) -> ExtractedArticle? {
    extract(html: decode(data, contentType: contentType), url: url, rules: rules)
  }

  /// What a pass of the extraction does; each pass after the first does less, as Readability's
  /// retries do (``extract(html:url:rules:)``).
  struct Flags: OptionSet {
    let rawValue: Int
    /// Elements whose class or id says they are not the article are removed first.
    static let stripUnlikely = Flags(rawValue: 1)
    /// Classes and ids weigh on the scores (`content` up, `sidebar` down).
    static let weightClasses = Flags(rawValue: 2)
    /// Blocks that score badly inside the article (link lists, widgets) are removed.
    static let cleanConditionally = Flags(rawValue: 4)
    static let all: Flags = [.stripUnlikely, .weightClasses, .cleanConditionally]
  }

  /// The article in `html`; `nil` when it holds no text at all.
  ///
  /// A pass whose text is shorter than ``minimumLength`` is run again on the page as it came,
  /// with fewer flags (unlikely elements kept, then classes unweighed, then nothing cleaned): an
  /// article that is short, or sits in markup the first pass strips, is still found. When every
  /// pass is short, the longest is the answer (or the page's declared body, when it has more
  /// words), as in Readability's `_grabArticle`.
  package static func extract(html: String, url: URL?, rules: ExtractionRules = ExtractionRules())
    -> ExtractedArticle?
  {
    var root = HTMLTreeBuilder.parse(html)
    // One walk of the page for what is read before anything is removed.
    let elements = root.descendants
    let metadata = ArticleMetadata(root, elements: elements, url: url)
    // The byline the page shows, looked for only when the metadata names no author.
    let shownByline = metadata.byline == nil ? byline(in: elements) : nil
    // A page of more elements than any article page has gets one pass: the retries parse it
    // again, and a page written to hurt must not cost four times its one pass.
    let passes: [Flags] =
      elements.count > maximumElementsRetried
      ? [.all] : [.all, [.weightClasses, .cleanConditionally], [.cleanConditionally], []]
    var found: (body: String, words: Int, lead: String?)?
    var foundLength = -1
    // The longest pass whose text is mostly links (a home page's teasers, more than half of
    // their text in links): the answer only when no pass finds text of its own.
    var linked: (body: String, words: Int, lead: String?)?
    for (number, flags) in passes.enumerated() {
      if number > 0 { root = HTMLTreeBuilder.parse(html) }
      let pass = extractPass(
        root, flags: flags, title: metadata.title, base: metadata.base, rules: rules,
        removeByline: metadata.byline == nil)
      if pass.linkDensity > maximumLinkDensity {
        // Links alone (nine tenths of the text and more) are no article, however long.
        if pass.linkDensity <= onlyLinks, pass.words > (linked?.words ?? 0) {
          linked = (pass.body, pass.words, pass.lead)
        }
        continue
      }
      if pass.length > foundLength {
        (found, foundLength) = ((pass.body, pass.words, pass.lead), pass.length)
      }
      // Rules that keep what they say are the article: no pass with fewer flags changes it.
      if pass.length >= minimumLength || pass.kept { break }
    }
    if (found?.words ?? 0) == 0, let linked { found = linked }
    guard var (body, words, lead) = found else { return nil }
    if words < minimumWords, let fallback = metadata.body, wordCount(fallback) > words {
      body = fallback.components(separatedBy: "\n").filter {
        !$0.trimmingCharacters(in: .whitespaces).isEmpty
      }
      .map { "<p>" + ArticleSerializer.escape($0) + "</p>" }.joined(separator: "\n")
      words = wordCount(fallback)
      lead = fallback.split(separator: "\n").first.map(String.init)
    }
    // A page with no text at all (an image, a form, an empty shell) holds no article.
    guard words > 0 else { return nil }
    let excerpt = metadata.excerpt ?? lead
    return ExtractedArticle(
      title: metadata.title ?? root.all(["h1"]).first?.text, byline: metadata.byline ?? shownByline,
      siteName: metadata.siteName, excerpt: excerpt, imageURL: metadata.imageURL,
      publishedAt: metadata.publishedAt
        ?? root.all(["time"]).lazy.compactMap { $0["datetime"].flatMap(FeedDate.parse) }.first,
      html: body, words: words)
  }

  /// One pass over `root` (changed by it): the article's HTML, its words and its first
  /// paragraph, the share of its text in links; `kept` when the source's rules picked the
  /// elements; `length`, its text's length in characters once cleaned.
  static func extractPass(
    _ root: HTMLElement, flags: Flags, title: String?, base: URL?, rules: ExtractionRules,
    removeByline: Bool = false
  ) -> (body: String, words: Int, lead: String?, linkDensity: Double, kept: Bool, length: Int) {
    revealNoscriptImages(root.descendants.filter { $0.name == "noscript" })
    if let drop = rules.drop {
      let dropped = drop.select(in: root)
      for element in dropped { element.markRemoved() }
      HTMLElement.sweep(dropped.compactMap(\.parent))
    }
    if let keep = rules.keep, case let kept = outermost(keep.select(in: root)), !kept.isEmpty {
      removeBoilerplate(root, unlikely: false)
      let (body, words, lead) = ArticleSerializer.html(kept, base: base)
      return (body, words, lead, 0, true, 0)
    }
    removeShownMetadata(root, title: title, byline: removeByline)
    removeBoilerplate(root, unlikely: flags.contains(.stripUnlikely))
    let weighted = flags.contains(.weightClasses)
    let content = best(in: root, weightClasses: weighted)
    for element in content {
      clean(element, conditionally: flags.contains(.cleanConditionally), weightClasses: weighted)
    }
    let (body, words, lead) = ArticleSerializer.html(content, base: base)
    for element in content { element.measure() }
    let length = content.reduce(0) { $0 + $1.length }
    let links = content.reduce(0.0) { $0 + Double($1.length) * $1.linkDensity }
    return (body, words, lead, length > 0 ? links / Double(length) : 0, false, length)
  }

  /// Words of `text`: runs of letters or digits (a CJK character is a word of its own).
  package static func wordCount(_ text: String) -> Int {
    var count = 0
    var inWord = false
    var ascii = true
    for byte in text.utf8 {
      guard byte < 0x80 else {
        ascii = false
        break
      }
      let letter =
        ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
      if letter, !inWord { count += 1 }
      inWord = letter
    }
    if ascii { return count }
    count = 0
    inWord = false
    for scalar in text.unicodeScalars {
      if (0x3040...0x9FFF).contains(scalar.value) || (0xAC00...0xD7AF).contains(scalar.value) {
        count += 1
        inWord = false
      } else if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
        if !inWord { count += 1 }
        inWord = true
      } else {
        inWord = false
      }
    }
    return count
  }

  // MARK: - Boilerplate

  static let removedElements: Set<String> = [
    "script", "style", "link", "meta", "template", "svg", "canvas", "iframe", "object", "embed",
    "button", "input", "select", "textarea", "nav", "aside", "footer", "noscript", "dialog",
    "menu", "title", "head", "video", "audio", "map", "form",
  ]
  static let removedRoles: Set<String> = [
    "navigation", "banner", "contentinfo", "complementary", "dialog", "alertdialog", "menu",
    "menubar", "search", "alert", "toolbar",
  ]
  /// What a class or id says of an element, in the manner of Readability's patterns: words
  /// found anywhere in it (`fragments`), or standing alone between separators (`words`).
  struct ClassPattern: Sendable {
    let fragments: [[UInt8]]
    let words: Set<String>

    init(fragments: [String], words: Set<String> = []) {
      self.fragments = fragments.map { Array($0.utf8) }
      self.words = words
    }

    /// Whether `text` (lower-case) holds a fragment, or one of the words standing alone.
    func matches(_ text: String) -> Bool {
      let bytes = Array(text.utf8)
      for fragment in fragments where fragment.count <= bytes.count {
        let first = fragment[0]
        var index = 0
        while index + fragment.count <= bytes.count {
          if bytes[index] == first, bytes[index..<(index + fragment.count)].elementsEqual(fragment)
          {
            return true
          }
          index += 1
        }
      }
      guard !words.isEmpty else { return false }
      return text.split { !$0.isLetter && !$0.isNumber }.contains { words.contains(String($0)) }
    }
  }

  /// Classes and ids of what is not the article (unless ``maybe`` says it may be).
  static let unlikely = ClassPattern(
    fragments: [
      "-ad-", "advert", "ai2html", "banner", "breadcrumb", "combx", "comment", "community",
      "cover-wrap", "disqus", "extra", "footer", "gdpr", "header", "legends", "menu", "related",
      "remark", "replies", "rss", "shoutbox", "sidebar", "skyscraper", "social", "sponsor",
      "supplemental", "ad-break", "agegate", "pagination", "pager", "popup", "yom-remote",
      "newsletter", "subscri", "signup", "sign-up", "cookie", "consent", "share", "sharing",
      "promo", "modal", "recommend", "most-popular", "trending", "outbrain", "taboola",
      "toolbar", "masthead", "navbar", "skip-link", "login", "editsection", "reflist", "navbox",
      "catlinks", "printfooter", "mw-jump", "noprint", "hatnote", "headerlink",
    ],
    words: ["ad", "ads", "nav"])
  static let maybe = ClassPattern(
    fragments: [
      "and", "article", "body", "column", "content", "main", "shadow", "story", "posttext",
      "post-text", "entry",
    ])
  static let negative = ClassPattern(
    fragments: [
      "-ad-", "hidden", "banner", "combx", "comment", "com-", "contact", "foot", "footer",
      "footnote", "gdpr", "masthead", "media", "meta", "outbrain", "promo", "related", "scroll",
      "share", "shoutbox", "sidebar", "skyscraper", "sponsor", "shopping", "tags", "tool", "widget",
      "newsletter", "subscri", "social", "recommend", "byline", "author", "dateline",
      "caption-credit",
    ],
    words: ["hid"])
  static let positive = ClassPattern(
    fragments: [
      "article", "body", "content", "entry", "hentry", "h-entry", "main", "page", "pagination",
      "post", "text", "blog", "story",
    ])

  static func matches(_ pattern: ClassPattern, _ text: String) -> Bool {
    pattern.matches(text)
  }

  /// Whether `element` is hidden (`hidden`, `aria-hidden`, `display:none`, `visibility:hidden`).
  static func isHidden(_ element: HTMLElement) -> Bool {
    if element["hidden"] != nil { return true }
    if element["aria-hidden"]?.lowercased() == "true", element.name != "img",
      element.count(of: "p", upTo: 1) > 0 || element.hasShortText(under: 200)
    {
      return true
    }
    guard let style = element["style"], !style.isEmpty else { return false }
    let compact = style.lowercased().filter { $0 != " " }
    return compact.contains("display:none") || compact.contains("visibility:hidden")
  }

  /// Removes what is never the article; with `unlikely`, also elements whose class or id says
  /// they are not (unless they also say they may be).
  static func removeBoilerplate(_ root: HTMLElement, unlikely checkClass: Bool) {
    // Marked as found (what is below a marked element is skipped by every later question),
    // taken out of their parents once at the end: a page of 100,000 siblings stays linear.
    var parents: [HTMLElement] = []
    func drop(_ element: HTMLElement) {
      element.markRemoved()
      if let parent = element.parent { parents.append(parent) }
    }
    defer { HTMLElement.sweep(parents) }
    for element in root.descendants.reversed() {
      if removedElements.contains(element.name) {
        drop(element)
        continue
      }
      // Most elements have no attributes: nothing more to ask of them.
      guard !element.attributes.isEmpty || element.name == "header" else { continue }
      if let role = element["role"], removedRoles.contains(role.lowercased()) {
        drop(element)
        continue
      }
      if isHidden(element) {
        drop(element)
        continue
      }
      if element.name == "header", element.count(of: "p", upTo: 3) < 3 {
        drop(element)
        continue
      }
      guard checkClass, element["class"] != nil || element["id"] != nil,
        !keptWhateverTheirClass.contains(element.name)
      else { continue }
      let names = element.classAndID
      if !names.trimmingCharacters(in: .whitespaces).isEmpty, matches(unlikely, names),
        !matches(maybe, names), !hasAncestor(element, in: ["table", "code", "pre"])
      {
        drop(element)
      }
    }
  }

  /// Elements never removed for their class or id.
  static let keptWhateverTheirClass: Set<String> = [
    "body", "html", "article", "main", "a", "#document",
  ]

  static func hasAncestor(_ element: HTMLElement, in names: Set<String>) -> Bool {
    var current = element.parent
    while let next = current {
      if names.contains(next.name) { return true }
      current = next.parent
    }
    return false
  }

  /// `<noscript>` holding an image (the real one behind a lazy placeholder) becomes that image.
  static func revealNoscriptImages(_ noscripts: [HTMLElement]) {
    for noscript in noscripts {
      let inner = noscript.children.compactMap {
        if case .text(let text) = $0 { text } else { nil }
      }
      .joined()
      guard inner.range(of: "<img", options: .caseInsensitive) != nil, let parent = noscript.parent
      else {
        continue
      }
      let fragment = HTMLTreeBuilder.parse(inner)
      let images = fragment.all(["img"])
      guard !images.isEmpty else { continue }
      // A placeholder image just before it is replaced, not shown twice.
      if let position = parent.children.firstIndex(where: {
        if case .element(let element) = $0 { element === noscript } else { false }
      }) {
        let previous = parent.children[..<position].last { node in
          if case .text(let text) = node { return !text.allSatisfy(\.isWhitespace) }
          return true
        }
        if case .element(let placeholder)? = previous, placeholder.name == "img" {
          placeholder.remove()
        }
      }
      guard
        let index = parent.children.firstIndex(where: {
          if case .element(let element) = $0 { element === noscript } else { false }
        })
      else { continue }
      parent.children.remove(at: index)
      for (offset, image) in images.enumerated() {
        image.parent = parent
        parent.children.insert(.element(image), at: index + offset)
      }
    }
  }

  /// The outermost of `elements` (none inside another), in document order.
  static func outermost(_ elements: [HTMLElement]) -> [HTMLElement] {
    let set = Set(elements.map(ObjectIdentifier.init))
    return elements.filter { element in
      var current = element.parent
      while let next = current {
        if set.contains(ObjectIdentifier(next)) { return false }
        current = next.parent
      }
      return true
    }
  }

  // MARK: - Scoring

  static func classWeight(_ element: HTMLElement, weighted: Bool = true) -> Double {
    guard weighted else { return 0 }
    var weight = 0.0
    for value in [element["class"], element["id"]] {
      guard let value = value?.lowercased(), !value.isEmpty else { continue }
      if matches(negative, value) { weight -= 25 }
      if matches(positive, value) { weight += 25 }
    }
    return weight
  }

  static func initialize(_ element: HTMLElement, weightClasses: Bool = true) {
    guard !element.scored else { return }
    element.scored = true
    switch element.name {
    case "div", "article", "main": element.score = 5
    case "pre", "td", "blockquote", "section": element.score = 3
    case "address", "ol", "ul", "dl", "dd", "dt", "li", "form": element.score = -3
    case "h1", "h2", "h3", "h4", "h5", "h6", "th": element.score = -5
    default: element.score = 0
    }
    if element.name == "article" || element["itemprop"] == "articleBody" { element.score += 25 }
    element.score += classWeight(element, weighted: weightClasses)
  }

  /// The elements that hold the article: the best-scoring one and the siblings that go with it.
  static func best(in root: HTMLElement, weightClasses: Bool = true) -> [HTMLElement] {
    let body = root.first(named: "body") ?? root
    root.measure()
    var candidates: [HTMLElement] = []
    // A paragraph's score, given to five of its ancestors: in full to the first, half to the
    // second, then divided by three times the level.
    func add(_ score: Double, from parent: HTMLElement?) {
      var ancestor = parent
      var level = 0
      while let current = ancestor, level < 5, current !== root {
        if !current.scored {
          initialize(current, weightClasses: weightClasses)
          candidates.append(current)
        }
        let divider = level == 0 ? 1.0 : level == 1 ? 2.0 : Double(level) * 3
        current.score += score / divider
        ancestor = current.parent
        level += 1
      }
    }
    for element in body.descendants {
      for paragraph in paragraphs(of: element) {
        guard paragraph.length >= 25 else { continue }
        // Readability's: a point for the paragraph, one for each piece its commas cut it in.
        var score = 1.0
        score += Double(paragraph.commas + 1)
        score += min(Double(paragraph.length / 100), 3)
        add(score, from: paragraph.parent)
      }
    }
    for candidate in candidates { candidate.score *= 1 - candidate.linkDensity }
    let leaders = topCandidates(candidates)
    guard var top = leaders.first else { return [body] }
    top = commonAncestor(of: leaders, above: top, below: body) ?? top
    if !top.scored { initialize(top, weightClasses: weightClasses) }
    // A parent that scores better than what was found, or holds only it, is the article.
    var lastScore = top.score
    let threshold = lastScore / 3
    var parent = top.parent
    while let current = parent, current !== body, current !== root {
      guard current.scored else {
        parent = current.parent
        continue
      }
      if current.score < threshold { break }
      if current.score > lastScore {
        top = current
        break
      }
      lastScore = current.score
      parent = current.parent
    }
    while let up = top.parent, up !== body, up !== root, up.elements.count == 1 {
      top = up
    }
    guard let parentOfTop = top.parent else { return [top] }
    let siblingThreshold = max(10, top.score * 0.2)
    var content: [HTMLElement] = []
    for sibling in parentOfTop.elements {
      if sibling === top {
        content.append(sibling)
        continue
      }
      var bonus = 0.0
      if let own = top["class"], !own.isEmpty, sibling["class"] == own { bonus = top.score * 0.2 }
      // A container of one paragraph and nothing else (sites that wrap each paragraph) is
      // that paragraph, as Readability turns such a div into its p.
      let paragraph = sibling.name == "p" ? sibling : soleParagraph(of: sibling)
      if sibling.scored, sibling.score + bonus >= siblingThreshold {
        content.append(sibling)
      } else if let paragraph {
        let length = paragraph.length
        let density = paragraph.linkDensity
        if length > 80, density < 0.25 {
          content.append(sibling)
        } else if length > 0, length < 80, density == 0, endsASentence(paragraph.text) {
          content.append(sibling)
        }
      }
    }
    return content
  }

  /// What Readability scores as paragraphs in `element`, each with the element its score
  /// starts from (its parent, as Readability's tree has it after turning divs into paragraphs):
  /// - `p`, `pre`, `td`, `blockquote`, `section` and headings below `h1`, by all their text; a
  ///   `p` that is all a div holds (and the div not a quarter links) stands for the div, so its
  ///   score starts above the div;
  /// - a `div` holding no block (Readability's `DIV_TO_P_ELEMS`) is a paragraph of its whole
  ///   text, its links included (above it; at it when a quarter of it is links or more);
  /// - a `div` holding blocks: each run of text and inline elements between them is a paragraph
  ///   of its own, scored from the div;
  /// - an `article`'s own text, outside any element, is a paragraph of the article.
  static func paragraphs(of element: HTMLElement) -> [(
    length: Int, commas: Int, parent: HTMLElement?
  )] {
    switch element.name {
    case "p", "pre", "td", "blockquote", "section", "h2", "h3", "h4", "h5", "h6":
      var parent = element.parent
      if element.name == "p", let div = parent, div.name == "div",
        soleParagraph(of: div) === element,
        div.linkDensity < 0.25
      {
        parent = div.parent
      }
      return [(element.length, element.commaCount, parent)]
    case "div":
      guard element.hasBlockDescendant else {
        let above = element.linkDensity < 0.25 ? element.parent : element
        return [(element.length, element.commaCount, above)]
      }
      var runs: [(length: Int, commas: Int, parent: HTMLElement?)] = []
      var run = (length: 0, commas: 0)
      func close() {
        if run.length > 0 { runs.append((run.length, run.commas, element)) }
        run = (0, 0)
      }
      for child in element.children {
        switch child {
        case .text(let text):
          let measured = HTMLElement.measure(text)
          // Runs are joined by a space, as the text of one paragraph.
          run.length += measured.length + (run.length > 0 && measured.length > 0 ? 1 : 0)
          run.commas += measured.commas
        case .element(let inner) where inner.isRemoved: continue
        case .element(let inner) where inner.isPhrasing:
          run.length += inner.length + (run.length > 0 && inner.length > 0 ? 1 : 0)
          run.commas += inner.commaCount
        case .element:
          close()
        }
      }
      close()
      return runs
    case "article":
      var own = (length: 0, commas: 0)
      for case .text(let text) in element.children {
        let measured = HTMLElement.measure(text)
        own = (own.length + measured.length, own.commas + measured.commas)
      }
      return [(own.length, own.commas, element.parent)]
    default:
      return []
    }
  }

  /// Whether `text` holds the end of a sentence: a full stop before a space or at its end
  /// (Readability's `/\.( |$)/`: `Photo: J. Smith` does, `Read more` does not).
  static func endsASentence(_ text: String) -> Bool {
    text.hasSuffix(".") || text.contains(". ")
  }

  /// The best five candidates, best first (Readability's `nbTopCandidates`); ties keep the
  /// document's order.
  static func topCandidates(_ candidates: [HTMLElement]) -> [HTMLElement] {
    var leaders: [HTMLElement] = []
    for candidate in candidates {
      let index = leaders.firstIndex { candidate.score > $0.score } ?? leaders.count
      if index < 5 {
        leaders.insert(candidate, at: index)
        if leaders.count > 5 { leaders.removeLast() }
      }
    }
    return leaders
  }

  /// Where at least three of the other leaders score within three quarters of the best one,
  /// their nearest ancestor above `top` that holds three of them (below `body`): a page of
  /// teasers, or a story in parts, is read whole, as Readability reads it.
  static func commonAncestor(
    of leaders: [HTMLElement], above top: HTMLElement, below body: HTMLElement
  ) -> HTMLElement? {
    guard top.score > 0 else { return nil }
    let close = leaders.dropFirst().filter { $0.score / top.score >= 0.75 }
    guard close.count >= 3 else { return nil }
    let ancestries = close.map { leader in
      var set = Set<ObjectIdentifier>()
      var current = leader.parent
      while let next = current {
        set.insert(ObjectIdentifier(next))
        current = next.parent
      }
      return set
    }
    var current = top.parent
    while let ancestor = current, ancestor !== body {
      if ancestries.filter({ $0.contains(ObjectIdentifier(ancestor)) }).count >= 3 {
        return ancestor
      }
      current = ancestor.parent
    }
    return nil
  }

  /// The one `p` a `div` or `section` holds when it holds nothing else (no text of its own).
  static func soleParagraph(of element: HTMLElement) -> HTMLElement? {
    guard element.name == "div" || element.name == "section" else { return nil }
    var found: HTMLElement?
    for child in element.children {
      switch child {
      case .text(let text): if !isBlank(text) { return nil }
      case .element(let inner):
        guard found == nil, inner.name == "p" else { return nil }
        found = inner
      }
    }
    return found
  }

  /// Whether `table` holds data rather than lay the page out, as Readability's
  /// `_markDataTables` decides: a caption, a summary, headers or column groups, or enough rows
  /// and columns. A data table is kept whole, never cleaned away.
  static func isDataTable(_ table: HTMLElement) -> Bool {
    if table["role"]?.lowercased() == "presentation" || table["datatable"] == "0" { return false }
    if table["summary"] != nil { return true }
    // What is read of it is bounded: a page of nested tables stays linear.
    var inside: [HTMLElement] = []
    var stack = table.elements.reversed() as [HTMLElement]
    while let next = stack.popLast(), inside.count < 2_000 {
      inside.append(next)
      stack += next.elements.reversed()
    }
    if inside.contains(where: { $0.name == "caption" && !$0.children.isEmpty }) { return true }
    let structure: Set<String> = ["col", "colgroup", "tfoot", "thead", "th"]
    if inside.contains(where: { structure.contains($0.name) }) { return true }
    if inside.contains(where: { $0.name == "table" }) { return false }
    // Rows and columns as Readability counts them: a row's `rowspan`, its cells' `colspan`,
    // each within what HTML allows (a hostile span of 2^63 cannot overflow the sums).
    func span(_ element: HTMLElement, _ attribute: String, upTo limit: Int) -> Int {
      element[attribute].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map {
        min(max($0, 1), limit)
      } ?? 1
    }
    let trs = inside.filter { $0.name == "tr" }
    let rows = trs.reduce(0) { $0 + span($1, "rowspan", upTo: 65_534) }
    let columns =
      trs.map { row in
        row.elements.reduce(0) { $0 + ($1.name == "td" ? span($1, "colspan", upTo: 1_000) : 0) }
      }.max() ?? 0
    // One column or one row lays things out (a sidebar of links), however long.
    if rows == 1 || columns == 1 { return false }
    return rows >= 10 || columns > 4 || rows * columns > 10
  }

  // MARK: - Cleaning

  /// Removes, inside the article, what scores badly: linky blocks, forms, widgets, short blocks
  /// of images. One walk, children before their parent: what an element holds (paragraphs,
  /// images, list items, code) is what its children that stayed hold, counted as they are
  /// judged. Linear in the article's size, however deep or wide.
  static func clean(_ content: HTMLElement, conditionally: Bool = true, weightClasses: Bool = true)
  {
    /// An element being walked: the next of its children to visit, and what its children that
    /// stay hold (a child is judged, and added or not, before its parent is judged).
    struct Frame {
      let element: HTMLElement
      var next = 0
      var held = Contents()
      let inFigure: Bool
    }
    var parents: [HTMLElement] = []
    var stack = [
      Frame(
        element: content,
        inFigure: content.name == "figure" || hasAncestor(content, in: ["figure"]))
    ]
    while let top = stack.last {
      let element = top.element
      if top.next < element.children.count {
        stack[stack.count - 1].next += 1
        if case .element(let child) = element.children[top.next], !child.isRemoved {
          stack.append(Frame(element: child, inFigure: top.inFigure || element.name == "figure"))
        }
        continue
      }
      let frame = stack.removeLast()
      guard !stack.isEmpty else { break }
      var removed = false
      // A div with no block inside it is a paragraph, as Readability makes it one: kept, and
      // counted as one.
      let paragraphLike = element.name == "div" && frame.held.blocks == 0
      switch element.name {
      case "div" where paragraphLike:
        break
      // Readability's conditional cleaning: tables, unordered lists and divs.
      case "div", "ul", "table":
        removed =
          conditionally
          && shouldRemove(
            element, holding: frame.held, inFigure: frame.inFigure, weightClasses: weightClasses)
      default:
        break
      }
      if removed {
        element.markRemoved()
        parents.append(stack[stack.count - 1].element)
      } else {
        stack[stack.count - 1].held.add(frame.held, element: element, asParagraph: paragraphLike)
      }
    }
    HTMLElement.sweep(parents)
    dropEmptyHeadings(content)
  }

  /// What an element holds below it, for ``clean(_:conditionally:weightClasses:)``.
  struct Contents {
    var paragraphs = 0
    var images = 0
    var items = 0
    /// `pre`, `code` and `math` elements.
    var code = 0
    /// Elements that keep a div from being a paragraph (Readability's `DIV_TO_P_ELEMS`).
    var blocks = 0
    /// The text of the headings below it, and of its lists (each counted where it stands).
    var headingLength = 0
    var listLength = 0
    /// Whether any text stands in an element Readability counts as text (its `textishTags`).
    var textish = false

    static let blockNames: Set<String> = [
      "blockquote", "dl", "div", "img", "ol", "p", "pre", "table", "ul",
    ]
    static let textishNames = blockNames.union(["span", "li", "td"])
    static let headingNames: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]

    /// Adds what a child `element` holds, and the child itself (a paragraph when `asParagraph`,
    /// a div that is one).
    mutating func add(_ child: Contents, element: HTMLElement, asParagraph: Bool = false) {
      let name = element.name
      paragraphs += child.paragraphs + (name == "p" || asParagraph ? 1 : 0)
      blocks += child.blocks + (Self.blockNames.contains(name) ? 1 : 0)
      images += child.images + (name == "img" ? 1 : 0)
      items += child.items + (name == "li" ? 1 : 0)
      code += child.code + (name == "pre" || name == "code" || name == "math" ? 1 : 0)
      headingLength += child.headingLength + (Self.headingNames.contains(name) ? element.length : 0)
      listLength += child.listLength + (name == "ul" || name == "ol" ? element.length : 0)
      textish = textish || child.textish || (Self.textishNames.contains(name) && element.length > 0)
    }
  }

  /// A heading with nothing after it but another heading (what headed a removed list of
  /// references or links) goes too. Each element's children are read once, last to first.
  static func dropEmptyHeadings(_ content: HTMLElement) {
    let headings: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]
    var parents: [HTMLElement] = []
    for parent in [content] + content.descendants.reversed()
    where parent.children.contains(where: {
      if case .element(let element) = $0 { headings.contains(element.name) } else { false }
    }) {
      // The node after the one looked at: nil at the end, else whether it is a heading.
      var nextIsHeading: Bool?
      for node in parent.children.reversed() {
        switch node {
        case .text(let text):
          if !isBlank(text) { nextIsHeading = false }
        case .element(let element) where element.isRemoved:
          continue
        case .element(let element):
          if headings.contains(element.name), nextIsHeading != false {
            element.markRemoved()
            parents.append(parent)
            continue
          }
          nextIsHeading = headings.contains(element.name)
        }
      }
    }
    HTMLElement.sweep(parents)
  }

  /// Whether `text` is only white space: its bytes read while they are ASCII.
  static func isBlank(_ text: String) -> Bool {
    for byte in text.utf8 {
      switch byte {
      case 0x20, 0x09, 0x0A, 0x0D, 0x0C: continue
      case 0x80...: return text.allSatisfy(\.isWhitespace)
      default: return false
      }
    }
    return true
  }

  /// Readability's `_cleanConditionally` for one element: whether it goes.
  static func shouldRemove(
    _ element: HTMLElement, holding held: Contents, inFigure: Bool, weightClasses: Bool = true
  ) -> Bool {
    let weight = classWeight(element, weighted: weightClasses)
    if weight < 0 { return true }
    let length = element.length
    if element.commaCount >= 10 { return false }
    if inFigure || element.name == "table" && (held.code > 0 || isDataTable(element)) {
      return false
    }
    // A block that is nine tenths lists is judged as a list.
    let isList =
      element.name == "ul" || element.name == "ol"
      || (length > 0 && held.listLength * 10 > length * 9)
    if length < 24, let text = shortText(of: element, limit: 8), isAdvertOrLoading(text) {
      return true
    }
    let paragraphs = Double(held.paragraphs)
    let images = Double(held.images)
    let items = Double(held.items - 100)
    let density = element.linkDensity
    let headingDensity = length > 0 ? Double(held.headingLength) / Double(length) : 0
    let remove =
      (images > 1 && paragraphs / images < 0.5)
      || (!isList && items > paragraphs)
      // Short and linked, and not a heading's block.
      || (!isList && headingDensity < 0.9 && length < 25 && (images == 0 || images > 2)
        && density > 0)
      // A list is never judged by its links.
      || (!isList && weight < 25 && density > 0.2)
      || (weight >= 25 && density > 0.5)
      // No text where text stands, and no image. A div's own text counts: Readability puts
      // it in paragraphs before it judges the div.
      || (images == 0 && !held.textish && !hasOwnText(element))
    // A simple list of images stays: an image an item, and each item one element.
    if remove, isList, held.items == held.images,
      element.elements.allSatisfy({ $0.elements.count <= 1 })
    {
      return false
    }
    return remove
  }

  /// The text of `element` when it is made of at most `limit` nodes, else `nil`: a short
  /// block's words are read in steps bounded by `limit`, however deep the page nests elements
  /// around little text (a chain of 388 divs around one word is not read 388 times).
  static func shortText(of element: HTMLElement, limit: Int = 64) -> String? {
    var count = 0
    var stack = [element]
    while let next = stack.popLast() {
      count += next.children.count
      if count > limit { return nil }
      for case .element(let child) in next.children where !child.isRemoved { stack.append(child) }
    }
    return element.text
  }

  /// Whether text stands directly in `element`, not in a child.
  static func hasOwnText(_ element: HTMLElement) -> Bool {
    element.children.contains {
      if case .text(let text) = $0 { !isBlank(text) } else { false }
    }
  }

  /// Whether a block's whole text says it is an advertisement, or something loading
  /// (Readability's `adWords` and `loadingWords`).
  static func isAdvertOrLoading(_ text: String) -> Bool {
    let text = text.lowercased().trimmingCharacters(in: .whitespacesAndNewlines)
    let adverts: Set<String> = [
      "ad", "advertising", "advertisement", "pub", "publicité", "werb", "werbung", "广告",
      "реклама", "anuncio",
    ]
    if adverts.contains(text) { return true }
    for word in ["loading", "正在加载", "загрузка", "chargement", "cargando"] {
      if text == word || text == word + "…" || text == word + "..." { return true }
    }
    return false
  }

  /// What Readability takes out of the page before it looks for the article, as the article's
  /// metadata says it: the first `h1` or `h2` that repeats the title (``textSimilarity(_:_:)``
  /// above 0.75), and, when the metadata names no author, the byline the page shows.
  static func removeShownMetadata(_ root: HTMLElement, title: String?, byline: Bool) {
    guard title != nil || byline else { return }
    let elements = root.descendants
    var removed: [HTMLElement] = []
    if byline, let shown = bylineElement(in: elements) { removed.append(shown) }
    if let title {
      let titleLength = title.utf8.count
      // Only a heading about as long as the title can repeat it: its text is read then.
      let repeated = elements.first { element in
        (element.name == "h1" || element.name == "h2")
          && element.length <= 2 * titleLength + 16
          && shortText(of: element, limit: 4 * titleLength + 64).map {
            textSimilarity(title, $0) > 0.75
          } == true
      }
      if let repeated { removed.append(repeated) }
    }
    for element in removed { element.markRemoved() }
    HTMLElement.sweep(removed.compactMap(\.parent))
  }

  /// Readability's `_textSimilarity`: the share of `b`'s words (ASCII letters, digits and `_`,
  /// lower-case), by length, that `a` holds too.
  static func textSimilarity(_ a: String, _ b: String) -> Double {
    func tokens(_ text: String) -> [Substring] {
      text.lowercased().split { character in
        !(character.isASCII && (character.isLetter || character.isNumber || character == "_"))
      }
    }
    let (first, second) = (tokens(a), tokens(b))
    guard !first.isEmpty, !second.isEmpty else { return 0 }
    let known = Set(first)
    let unique = second.filter { !known.contains($0) }
    let uniqueLength = unique.isEmpty ? 0 : unique.reduce(unique.count - 1) { $0 + $1.count }
    let allLength = second.reduce(second.count - 1) { $0 + $1.count }
    return 1 - Double(uniqueLength) / Double(allLength)
  }

  /// The byline a page shows, as Readability finds it: the first element with `rel="author"`,
  /// an `itemprop` holding `author`, or a class or id saying `byline`, `author`, `dateline`,
  /// `writtenby` or `p-author`, whose text is under 100 characters.
  static func bylineElement(in elements: [HTMLElement]) -> HTMLElement? {
    for element in elements where !element.attributes.isEmpty && !element.isRemoved {
      // Its few attributes read in turn: most elements that have any are links.
      var marked = false
      for (name, value) in element.attributes where !marked {
        switch name {
        case "rel": marked = value == "author"
        case "itemprop", "class", "id": marked = bylineNames.matches(value.lowercased())
        default: continue
        }
      }
      // Under 100 characters: its bytes tell first, its text only then.
      guard marked, element.length < 400, let count = shortText(of: element)?.count else {
        continue
      }
      if count > 0, count < 100 { return element }
    }
    return nil
  }

  /// What a byline's class or id says (Readability's `byline`; an `itemprop` holding `author`).
  static let bylineNames = ClassPattern(
    fragments: ["byline", "author", "dateline", "writtenby", "p-author"])

  /// The text of the byline the page shows (``bylineElement(in:)``), `By ` taken off, for an
  /// article whose metadata names no author.
  static func byline(in elements: [HTMLElement]) -> String? {
    guard let text = bylineElement(in: elements)?.text else { return nil }
    return text.hasPrefix("By ") ? String(text.dropFirst(3)) : text
  }
}
