import FeedParsing
// news-benchmark: helpers for Benchmarks/run.sh that need NewsCore itself.
//
//   news-benchmark populate <count> [<per run>]   fill the store under NEWS_HOME with <count>
//     articles, <per run> (5,000) at a time as refreshes keep them
//   news-benchmark crypto [MiB]       ChaCha20-Poly1305 throughput in 16 KiB messages, bytes/s
//   news-benchmark profile-search     the indexed search against loading and matching everything
//   news-benchmark extract <page>…    ms a page of the article extractor, against the feed reader
//   news-benchmark text <page>…       each page's extracted title and text (Benchmarks/oracle.py)
//   news-benchmark hostile <page> [--keep <selector>] [--drop <selector>]  one extraction of a page and its text,
//     and the page as a feed item's HTML content: bytes out (Tests/Stress/hostile.sh times it)
//   news-benchmark entries <base URL> <file>…  each document's entries as the feed reader finds
//     them, one JSON line a document, each read as served from <base URL> + its path
//     (Benchmarks/fidelity.py holds them against feedparser's)
//   news-benchmark parse [--new-only] <file>…  MB/s of the feed reader against the XMLParser-based one it
//                                     replaced, on the same documents
import Foundation
import NewsCore

let arguments = Array(CommandLine.arguments.dropFirst())

/// Runs `body` over every one of `inputs` until a second or more has passed: the seconds it
/// took, the rounds, and what `body` counted in all.
func repeatedForASecond(_ inputs: [Data], _ body: (Data) -> Int) -> (Double, Int, Int) {
  let clock = ContinuousClock()
  var rounds = 0
  var counted = 0
  let start = clock.now
  repeat {
    for input in inputs { counted += body(input) }
    rounds += 1
  } while clock.now - start < .seconds(1)
  let elapsed = clock.now - start
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  return (seconds, rounds, counted)
}

func fail(_ message: String) -> Never {
  // `write(_:)` traps on an I/O error; this one is ignored, the exit status says enough.
  try? FileHandle.standardError.write(contentsOf: Data("news-benchmark: \(message)\n".utf8))
  exit(64)
}

switch arguments.first {
case "populate":
  guard let count = arguments.dropFirst().first.flatMap(Int.init), count > 0 else {
    fail("usage: news-benchmark populate <count> [<per run>]")
  }
  // As a reader's history makes them: runs of `perRun` new articles, each run later than the
  // one before (what the store sees as "seen at"), each article published up to a day before
  // the run that found it. Each run is one `keep`, as a refresh stores what it fetched: the
  // same segment files, compactions and retention the commands write.
  let perRun = arguments.dropFirst(2).first.flatMap(Int.init) ?? 5_000
  let environment = ProcessInfo.processInfo.environment
  let configuration = try Configuration(environment: environment)
  let key = try StoreKey.load(configuration: configuration, randomBytes: SecureRandom.bytes)
  let spacing = 600.0
  let start = Date().addingTimeInterval(-Double(count) * spacing)
  final class RunClock: @unchecked Sendable {
    // @unchecked: set between runs, read during them, on one thread.
    var now = Date()
  }
  let clock = RunClock()
  let store = ArticleStore(
    store: EncryptedStore(
      directory: configuration.paths.dataDirectory, key: key, randomBytes: SecureRandom.bytes),
    retention: .everything, now: { clock.now })
  let words = [
    "election", "climate", "markets", "court", "health", "science", "sports", "energy", "space",
    "technology", "policy", "trade", "housing", "travel", "music", "education",
  ]
  func article(_ index: Int) -> Article {
    let topic = words[index % words.count]
    let other = words[(index * 7 + 3) % words.count]
    let url = "https://news.example.com/\(2024 - index % 5)/\(topic)/story-\(index).html"
    return Article(
      id: ArticleID.derive(fromURL: url), provider: "newsapi",
      title: "Story \(index): what the \(topic) debate means for \(other)",
      description: "A realistic description of about two lines, about \(topic) and \(other), "
        + "with enough words to make searching it representative of real headlines.",
      author: "Reporter \(index % 97)", publisher: "Example News", url: url,
      imageURL: "https://images.example.com/\(index).jpg",
      publishedAt: start.addingTimeInterval(
        Double(index) * spacing - Double(index * 7919 % 86_400)),
      content: "The full text starts here and is cut by the API like real content is, "
        + "mentioning \(topic) again… [+\(1000 + index % 3000) chars]")
  }
  var last: [Article] = []
  for first in stride(from: 0, to: count, by: perRun) {
    let run = (first..<min(first + perRun, count)).map(article)
    clock.now = start.addingTimeInterval(Double(first + run.count) * spacing)
    try store.keep(run, provider: "newsapi")
    last = run
  }
  // A listing for the default query, as a sync leaves it, so that `headlines --offline` has one.
  try store.save(
    ArticleList(
      provider: "newsapi", totalResults: count, articles: Array(last.suffix(20).reversed()),
      fetchedAt: clock.now), key: TopHeadlinesQuery().storageKey)
  print("stored \(count) articles in \(configuration.paths.dataDirectory.path)")

case "profile-search":
  // `news search` through the index, against loading every article and matching them all.
  let configuration = try Configuration(environment: ProcessInfo.processInfo.environment)
  let key = try StoreKey.load(configuration: configuration, randomBytes: SecureRandom.bytes)
  let store = ArticleStore(
    store: EncryptedStore(
      directory: configuration.paths.dataDirectory, key: key, randomBytes: SecureRandom.bytes),
    now: Date.init)
  let clock = ContinuousClock()
  var all: [Article] = []
  let load = try clock.measure { all = try store.allArticles() }
  var found = 0
  let match = clock.measure {
    found = ArticleSearch.matching(["climate", "policy"], in: all).count
  }
  var searched = 0
  let search = try clock.measure {
    searched = try store.search(["climate", "policy"]).articles.count
  }
  print("indexed search \(search), \(searched) found")
  print("without the index: load \(load), match \(match), \(all.count) articles, \(found) found")

case "crypto":
  let mebibytes = arguments.dropFirst().first.flatMap(Int.init) ?? 64
  let message = [UInt8](repeating: 0x61, count: 16_384)
  let key = [UInt8](repeating: 1, count: 32)
  let nonce = [UInt8](repeating: 2, count: 12)
  let rounds = mebibytes * 64
  let clock = ContinuousClock()
  var checksum: UInt8 = 0
  let elapsed = clock.measure {
    for _ in 0..<rounds {
      let sealed = ChaChaPoly.seal(message, key: key, nonce: nonce)
      checksum ^= sealed.tag[0]
    }
  }
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  print(Int(Double(rounds * message.count) / seconds), checksum == 255 ? "" : "")

case "extract":
  // The article extractor against the feed reader on the same bytes: each page read by both,
  // repeated until a second or more has passed; milliseconds a page and the ratio.
  let files = arguments.dropFirst().map { URL(fileURLWithPath: $0) }
  guard !files.isEmpty else { fail("usage: news-benchmark extract <page.html>…") }
  let pages = try files.map { try Data(contentsOf: $0) }
  let base = URL(string: "https://pages.example/article.html")
  func milliseconds(_ body: (Data) -> Int) -> (Double, Int) {
    let (seconds, rounds, words) = repeatedForASecond(pages, body)
    return (seconds * 1000 / Double(rounds * pages.count), words / rounds)
  }
  let (extract, words) = milliseconds { page in
    ArticleExtractor.extract(page, url: base, contentType: "text/html")?.words ?? 0
  }
  let (parse, _) = milliseconds { page in
    (try? FeedRegistry.webFeedAdapter.decode(page, source: "b", origin: FeedOrigin()).items.count)
      ?? 0
  }
  let kilobytes = pages.reduce(0) { $0 + $1.count } / pages.count / 1024
  print(
    String(
      format: "extract %.2f ms a page (%d KB, %d words out); feed reader %.2f ms; ratio %.2f",
      extract, kilobytes, words / pages.count, parse, extract / max(parse, 0.000_001)))
case "text":
  // The article of each page as `show --full` finds it: its title, then its text (for the
  // comparison with readability-lxml in Benchmarks/oracle.py).
  for path in arguments.dropFirst() {
    let page = try Data(contentsOf: URL(fileURLWithPath: path))
    let article = ArticleExtractor.extract(
      page, url: URL(string: "https://pages.example/a.html"), contentType: "text/html")
    print("== \(path)")
    print("title: \(article?.title ?? "")")
    print(article?.plainText ?? "")
  }
case "hostile":
  // One of each path a hostile page takes (`show --full`: extraction, then the text printed;
  // a feed item's content: HTML to text), once: CPU and memory are measured around the process.
  guard arguments.count >= 2 else { fail("usage: news-benchmark hostile <page> [--keep <sel>]") }
  let page = try Data(contentsOf: URL(fileURLWithPath: arguments[1]))
  var rules = ExtractionRules()
  if let flag = arguments.firstIndex(of: "--drop"), flag + 1 < arguments.count {
    rules.drop = try CSSSelector(arguments[flag + 1])
  }
  if let flag = arguments.firstIndex(of: "--keep"), flag + 1 < arguments.count {
    rules.keep = try CSSSelector(arguments[flag + 1])
  }
  let article = ArticleExtractor.extract(
    page, url: URL(string: "https://pages.example/a.html"), contentType: "text/html",
    rules: rules)
  let item = HTMLText.content(String(decoding: page, as: UTF8.self))
  print("article \(article?.text.utf8.count ?? 0) bytes, item \(item.utf8.count) bytes")
case "entries":
  // Title, link, text and date of every kept entry, as the adapter takes them from the reader.
  guard arguments.count >= 3, let base = URL(string: arguments[1]) else {
    fail("usage: news-benchmark entries <base URL> <file>…")
  }
  for path in arguments.dropFirst(2) {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let origin = FeedOrigin(url: URL(string: path, relativeTo: base)?.absoluteURL)
    var line: [String: Any] = ["file": path]
    do {
      let document = try FeedDocumentParser.parse(data, origin: origin)
      line["entries"] = document.entries.filter(\.isKept).map(\.sanitized).map { entry in
        var fields: [String: Any] = [:]
        fields["title"] = entry.title
        fields["link"] = entry.link
        fields["text"] = entry.summary ?? entry.content
        if !entry.categories.isEmpty { fields["categories"] = entry.categories }
        fields["date"] = entry.dates.lazy.compactMap(FeedDate.parse).first?.timeIntervalSince1970
        return fields
      }
    } catch {
      line["error"] = "\(error)"
    }
    let json = try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys])
    print(String(decoding: json, as: UTF8.self))
  }
case "parse":
  // Each reader over every document, repeated until a second or more has passed: bytes in,
  // items out (HTML to text, dates, ids) for both, the old one through XMLParser.
  let newOnly = arguments.contains("--new-only")
  let files = arguments.dropFirst().filter { $0 != "--new-only" }.map { URL(fileURLWithPath: $0) }
  guard !files.isEmpty else { fail("usage: news-benchmark parse <file>…") }
  let documents = try files.map { try Data(contentsOf: $0) }
  let bytes = documents.reduce(0) { $0 + $1.count }
  let adapter = FeedRegistry.webFeedAdapter
  func throughput(_ body: (Data) -> Int) -> (Double, Int) {
    let (seconds, rounds, entries) = repeatedForASecond(documents, body)
    return (Double(bytes * rounds) / seconds / 1e6, entries / rounds)
  }
  let (new, newEntries) = throughput { data in
    (try? adapter.decode(data, source: "b", origin: FeedOrigin()).items.count) ?? 0
  }
  guard !newOnly else {
    print(String(format: "new %.1f MB/s (%d entries)", new, newEntries))
    exit(0)
  }
  let (old, oldEntries) = throughput { data in
    // The old reader's whole path: XMLParser, then the same items made of its entries.
    guard let entries = try? LegacyXMLFeedParser.document(in: data).entries else { return 0 }
    var items: [FeedItem] = []
    for entry in entries {
      guard let title = entry.title ?? entry.summary else { continue }
      guard
        var item = FeedItem(
          feed: "b", title: title, description: entry.summary ?? entry.content,
          imageURL: entry.imageURL, url: entry.link)
      else { continue }
      item.author = entry.author
      item.publishedAt = entry.published.flatMap(FeedDate.parse)
      items.append(item)
    }
    return items.count
  }
  print(
    String(
      format: "new %.1f MB/s (%d entries), old %.1f MB/s (%d entries), ratio %.2f×",
      new, newEntries, old, oldEntries, new / old))

default:
  fail(
    "usage: news-benchmark populate <count> [<per run>] | crypto [MiB] | profile-search | parse <file>…"
  )
}
