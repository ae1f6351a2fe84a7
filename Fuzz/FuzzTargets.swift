// libFuzzer entry point for NewsCore, compiled into the module by Fuzz/run.sh (not by SwiftPM),
// against the FeedParsing module built alone.
// FUZZ_TARGET picks what the bytes are fed to; every target also checks invariants that must hold
// for any input, and crashes (so the fuzzer reports it) when one does not.
import FeedParsing
import Foundation
import Serving

let fuzzTarget = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? ""
let fuzzDate = Date(timeIntervalSince1970: 0)
let fuzzKey = [UInt8](repeating: 0x42, count: 32)

@_cdecl("LLVMFuzzerTestOneInput")
public func newsFuzz(_ pointer: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: pointer, count: size))
  let data = Data(bytes)
  let text = String(decoding: bytes, as: UTF8.self)
  switch fuzzTarget {
  case "newsapi":
    for status in [200, 401, 500] {
      if let page = try? NewsAPIClient.decode(status: status, body: data, fetchedAt: fuzzDate) {
        // An id names something: `https://` as a URL once made it empty.
        precondition(page.articles.allSatisfy { !$0.title.isEmpty && ArticleID.namesAPage($0.id) })
      }
    }
  case "articles":
    if let page = try? ArticlesDecoder.decode(data, fetchedAt: fuzzDate) {
      let dates = page.articles.compactMap(\.publishedAt)
      precondition(dates == dates.sorted(by: >), "articles not newest first")
    }
    _ = ArticlesDecoder.releaseDate(text)
  case "bbc":
    if let page = try? BBCDecoder.decode(data, fetchedAt: fuzzDate) {
      precondition(page.articles.allSatisfy { $0.id.hasPrefix("bbc-") })
      for article in page.articles { _ = article.publishedAt.map(DayFormat.long) }
    }
  case "syndication":
    // RSS, Atom and JSON Feed: any bytes give items with a title, or an error, never a crash.
    let origin = FeedOrigin(
      url: URL(string: "https://example.com/feeds/"),
      contentType: "application/xml; charset="
        + (["koi8-r", "utf-16", "x-none", "euc-jp"].randomElement() ?? ""))
    if let items = try? SyndicationAdapter().decode(data, source: "w", origin: origin).items {
      // An id is its normalised link's ARTICLEID, or the source's name and a hash; never twice
      // in a feed.
      precondition(
        items.allSatisfy { item in
          !item.title.isEmpty
            && (item.id.hasPrefix("w-")
              || item.id == item.url.map { ArticleID.derive(fromURL: ArticleID.normalizedLink($0)) })
        })
      precondition(Set(items.map(\.id)).count == items.count, "two items with one id")
    }
    // The tokenizer ends, moving forward: never more tokens than bytes.
    var tokenizer = XMLTokenizer(bytes)
    var tokens = 0
    while tokenizer.next() != nil {
      tokens += 1
      precondition(tokens <= bytes.count, "the tokenizer did not move forward")
    }
    if let page = URL(string: "https://example.com/blog/") {
      for feed in FeedDiscovery.announced(in: data, url: page) {
        precondition(
          ["http", "https"].contains(feed.url.scheme ?? ""), "discovered a non-web feed")
        precondition(feed.title?.isEmpty != true, "an empty title is no title")
      }
    }
    if let date = FeedDate.parse(text) { _ = ISO8601.string(from: date) }
  case "feed":
    let adapters: [any FeedAdapter] = [
      StoriesAdapter(), InnerDataAdapter(), TopLineAdapter(),
      JSONPathAdapter(items: "data.list", title: ["t", "u"], subtitle: ["s"], imageURL: ["i.0"]),
      JSONPathAdapter(items: "", title: ["topLine"]),
    ]
    for adapter in adapters {
      if let items = try? adapter.items(from: data, source: "z") {
        precondition(items.allSatisfy { $0.id.hasPrefix("z-") && !$0.title.isEmpty })
      }
    }
  case "store":
    // Arbitrary bytes must be refused (or, if ever authentic, decrypt) without crashing.
    // Checking the tag alone and opening agree.
    var opened = bytes
    let opens = (try? EncryptedFileFormat.open(&opened, name: "segments", key: fuzzKey)) != nil
    let verifies = (try? EncryptedFileFormat.verify(bytes, name: "segments", key: fuzzKey)) != nil
    precondition(opens == verifies, "verify and open disagree")
    let sealed = EncryptedFileFormat.seal(
      bytes, name: "x", key: fuzzKey, nonce: [UInt8](repeating: 7, count: 12))
    var good = sealed
    precondition((try? EncryptedFileFormat.open(&good, name: "x", key: fuzzKey)) != nil)
    precondition(good == bytes)
    var renamed = sealed
    precondition((try? EncryptedFileFormat.open(&renamed, name: "y", key: fuzzKey)) == nil)
  case "records":
    // Segment records: reading one and skipping it must agree on where it ends; a record read
    // writes back to a record that reads the same.
    var reader = BinaryReader(bytes, magic: "")!
    var skipper = reader
    while !reader.isAtEnd, let record = try? StoredArticle.read(from: &reader) {
      precondition((try? StoredArticle.skip(in: &skipper)) != nil, "skip refused a record")
      precondition(skipper.offset == reader.offset, "skip and read disagree")
      var writer = BinaryWriter(magic: "")
      record.write(to: &writer)
      var again = BinaryReader(writer.bytes, magic: "")!
      let reread = try? StoredArticle.read(from: &again)
      precondition(reread?.article == record.article && again.isAtEnd, "record does not round-trip")
    }
  case "search":
    // The index may only narrow: whenever a word or a regular expression matches a text, each
    // run the index is asked for (a word's longest, an expression's literal words, bounded as
    // they are) is inside one of the text's index words.
    let half = text.unicodeScalars.count / 2
    let title = String(String.UnicodeScalarView(text.unicodeScalars.prefix(half)))
    let rest = String(String.UnicodeScalarView(text.unicodeScalars.dropFirst(half)))
    var cache: [Unicode.Scalar: [UInt8]] = [:]
    var folded = ArticleSearch.fold(title, cache: &cache)
    folded.append(0x0A)
    var words = Set<[UInt8]>()
    SearchTokens.collect(folded, into: &words)
    // … and a segment's filter of those words lets every such run through.
    let filter = SegmentFilter(indexWords: words)
    func indexed(_ run: IndexRun) -> Bool {
      words.contains { word in word.withUnsafeBufferPointer { run.isIn($0) } }
        && filter.mayHold(run)
    }
    for word in rest.split(separator: " ").prefix(4).map(String.init) {
      guard var matcher = ArticleSearch.Matcher([word]), matcher.matches([title, nil, nil])
      else { continue }
      for run in matcher.wordBranches[0] {
        precondition(indexed(run), "the index would miss a match")
      }
    }
    // The first word as an expression, within the budget a search gives one.
    if let pattern = rest.split(separator: " ").first.map(String.init),
      PatternBudget().matches(pattern, options: QueryMatcher.regexOptions, in: title)
    {
      for run in RegexRuns.required(in: pattern) {
        precondition(indexed(run), "the index would miss a match of /\(pattern)/")
      }
    }
  case "subscriptions":
    // OPML and newsboat files: only web URLs come out.
    if let parsed = try? SubscriptionFile.parse(data) {
      precondition(
        parsed.subscriptions.allSatisfy {
          ["http", "https"].contains($0.url.scheme?.lowercased() ?? "")
        })
    }
    // Editing a config.json that decodes keeps it decoding, with the new source last.
    if let original = try? FeedConfigFile.parse(data, path: "config.json") {
      var editor = ConfigFileEditor(data)
      if (try? editor.append(#"{"name":"fuzz-new","url":"https://e.example/f"}"#)) != nil {
        let edited = try? FeedConfigFile.parse(Data(editor.bytes), path: "config.json")
        precondition(edited?.sources.last?.name == "fuzz-new", "an append broke config.json")
        precondition((try? editor.remove(named: "fuzz-new")) == true)
        let undone = try? FeedConfigFile.parse(Data(editor.bytes), path: "config.json")
        precondition(
          undone?.sources.map(\.name) == original.sources.map(\.name), "remove did not undo append")
        // Byte for byte when there was a source to space the new one like (an empty list's
        // spacing, `[ ]`, is not kept).
        if !original.sources.isEmpty {
          precondition(editor.bytes == bytes, "remove did not undo append byte for byte")
        }
      }
    }
  case "cache":
    // The compact cache records: any bytes decode or throw; what decodes re-encodes the same.
    // (An entry holding what the format cannot (a negative count from JSON) is refused.)
    if let entry = try? FeedCacheEntry.decode(bytes), let encoded = try? entry.encoded() {
      let again = try? FeedCacheEntry.decode(encoded)
      precondition(
        again?.items == entry.items && again?.url == entry.url && again?.title == entry.title
          && again?.site == entry.site, "round trip")
      // What news sources reads of it: the same, but the items.
      let summary = try? FeedCacheEntry.decodeSummary(encoded)
      precondition(
        summary?.url == entry.url && summary?.postsEvery == again?.postsEvery
          && summary?.freshFor == again?.freshFor && summary?.title == again?.title
          && summary?.items.isEmpty == true,
        "summary")
    }
    // A summary of any bytes decodes or throws.
    _ = try? FeedCacheEntry.decodeSummary(bytes)
  case "manifest":
    // The segment manifest, compact or JSON: any bytes decode or throw; what decodes is written
    // compact, and that reads back the same.
    if let manifest = try? SegmentManifest.decode(bytes), let encoded = try? manifest.encoded() {
      let again = try? SegmentManifest.decode(encoded)
      precondition((try? again?.encoded()) == encoded, "round trip")
    }
    // The segments read through: any bytes decode or throw; what decodes reads back the same.
    if let segments = try? FullyReadSegments(decoding: bytes) {
      precondition(
        (try? FullyReadSegments(decoding: segments.encoded)) == segments, "fully-read round trip")
    }
  case "dotenv":
    if let values = try? DotEnv.parse(text) {
      precondition(values.keys.allSatisfy { !$0.isEmpty && !$0.contains("=") })
      _ = try? Configuration(environment: ["HOME": "/nonexistent"], dotEnv: text)
    }
  case "http":
    // `news serve`'s request parser: any bytes are a request, not yet one, or a refusal with a
    // status; a request takes no more bytes than there are, its body within the bound, and any
    // shorter prefix of it is not yet a request.
    let limits = HTTPLimits()
    switch HTTPRequestParser.parse(bytes, limits: limits) {
    case .request(let request, let consumed):
      precondition(consumed > 0 && consumed <= bytes.count, "consumed past the bytes")
      precondition(request.body.count <= limits.bodyBytes, "a body past the bound")
      precondition(request.path.hasPrefix("/"), "a path that is not one")
      precondition(
        HTTPRequestParser.parse(Array(bytes[..<(consumed - 1)]), limits: limits) == .incomplete,
        "a prefix of a request read as something else")
      _ = Serving.HTTPResponse.text(request.path).serialized(keepAlive: request.keepsAlive)
    case .failure(let error):
      precondition([400, 413, 431, 501, 505].contains(error.status), "an unknown status")
    case .incomplete:
      precondition(bytes.count <= limits.headBytes + limits.bodyBytes + 4, "waited past the bounds")
    }
  case "config":
    _ = try? FeedConfigFile.parse(data, path: "config.json")
    // config.json's own JSON parser reads nothing JSONSerialization refuses, and reads what it
    // reads as JSONSerialization does.
    if let ours = ConfigJSONParser.value(of: Array(data)) {
      let theirs = (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
        .map(ConfigNode.Value.init)
      precondition(ours == theirs, "the config parser read what JSONSerialization reads otherwise")
      // Reading every number (the store's own files) only reads more, never otherwise.
      precondition(
        ConfigJSONParser.value(of: Array(data), everyNumber: true) == ours,
        "reading every number changed what was read")
    }
  case "extract":
    // A page is untrusted: any bytes give an article or none, never a crash; an article has
    // words (fewer than minimumWords when every pass was short: #45), and its HTML reads back
    // as text. The same bytes as a selector are read or refused.
    if let article = ArticleExtractor.extract(
      data, url: URL(string: "https://example.com/a/"), contentType: "text/html")
    {
      precondition(article.words > 0, "an article without words")
      _ = article.text
    }
    if let selector = try? CSSSelector(String(text.prefix(200))) {
      _ = selector.select(in: HTMLTreeBuilder.parse("<div class=a id=b><p x=y>t</p></div>"))
    }
  case "text":
    let id = ArticleID.derive(fromURL: text)
    precondition(!id.contains("/"), "ARTICLEID kept a slash")
    let segment = ArticleID.pathSegment(id)
    precondition(
      segment.unicodeScalars.allSatisfy { $0.isASCII && $0 != "/" && $0 != "?" && $0 != "#" })
    let cleaned = TerminalSanitizer.clean(HTMLText.plain(text))
    precondition(
      !cleaned.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) },
      "control character survived")
    _ = ISO8601.date(from: text)
    precondition(
      TextWrapper.wrap(text, width: 17, asciiFastPath: true)
        == TextWrapper.wrap(text, width: 17, asciiFastPath: false), "wrap fast path differs")
    precondition(HTMLText.plain(text) == HTMLText.cleaned(text), "plain fast path differs")
    // The byte paths answer as the character paths they stand in for.
    precondition(
      text.trimmingWhitespace() == text.trimmingWhitespaceByCharacter(), "trimming differs")
    precondition(
      ArticleID.normalizedLink(text) == ArticleID.normalizedLinkByCharacter(text),
      "link normalising differs")
    precondition(
      FeedLinks.hasScheme(text) == FeedLinks.hasSchemeByCharacter(text), "scheme differs")
    precondition(
      BinaryReader.validatedUTF8(bytes[...]) == String(validating: bytes, as: UTF8.self),
      "UTF-8 check differs")
    _ = JSONValue.string(text).serialized()
  default:
    fatalError(
      "set FUZZ_TARGET to newsapi, articles, bbc, feed, syndication, subscriptions, cache, manifest, store, records, search, dotenv, config, text, extract or http"
    )
  }
  return 0
}
