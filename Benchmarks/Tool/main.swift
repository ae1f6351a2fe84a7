// news-benchmark: helpers for Benchmarks/run.sh that need NewsCore itself.
//
//   news-benchmark populate <count>   fill the store under NEWS_HOME with <count> articles
//   news-benchmark crypto [MiB]       ChaCha20-Poly1305 throughput in 16 KiB messages, bytes/s
//   news-benchmark profile-search     the indexed search against loading and matching everything
import Foundation
import NewsCore

let arguments = Array(CommandLine.arguments.dropFirst())

func fail(_ message: String) -> Never {
  // `write(_:)` traps on an I/O error; this one is ignored, the exit status says enough.
  try? FileHandle.standardError.write(contentsOf: Data("news-benchmark: \(message)\n".utf8))
  exit(64)
}

switch arguments.first {
case "populate":
  guard let count = arguments.dropFirst().first.flatMap(Int.init), count > 0 else {
    fail("usage: news-benchmark populate <count>")
  }
  let environment = ProcessInfo.processInfo.environment
  let configuration = try Configuration(environment: environment)
  let key = try StoreKey.load(configuration: configuration, randomBytes: SecureRandom.bytes)
  let store = ArticleStore(
    store: EncryptedStore(
      directory: configuration.paths.dataDirectory, key: key, randomBytes: SecureRandom.bytes),
    retention: RetentionPolicy(maximumAge: .seconds(3650 * 86_400), maximumCount: count),
    now: Date.init)
  let words = [
    "election", "climate", "markets", "court", "health", "science", "sports", "energy", "space",
    "technology", "policy", "trade", "housing", "travel", "music", "education",
  ]
  let now = Date()
  var articles: [Article] = []
  for index in 0..<count {
    let topic = words[index % words.count]
    let other = words[(index * 7 + 3) % words.count]
    let url = "https://news.example.com/\(2024 - index % 5)/\(topic)/story-\(index).html"
    articles.append(
      Article(
        id: ArticleID.derive(fromURL: url), provider: "newsapi",
        title: "Story \(index): what the \(topic) debate means for \(other)",
        description: "A realistic description of about two lines, about \(topic) and \(other), "
          + "with enough words to make searching it representative of real headlines.",
        author: "Reporter \(index % 97)", source: "Example News", url: url,
        imageURL: "https://images.example.com/\(index).jpg",
        publishedAt: now.addingTimeInterval(-Double(index) * 600),
        content: "The full text starts here and is cut by the API like real content is, "
          + "mentioning \(topic) again… [+\(1000 + index % 3000) chars]"))
  }
  try store.keep(articles, provider: "newsapi")
  // A listing for the default query, as a sync leaves it, so that `headlines --offline` has one.
  try store.save(
    ArticleList(
      provider: "newsapi", totalResults: count, articles: Array(articles.prefix(20)),
      fetchedAt: now), key: TopHeadlinesQuery().storageKey)
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
  let search = try clock.measure { searched = try store.search(["climate", "policy"]).count }
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

default:
  fail("usage: news-benchmark populate <count> | crypto [MiB]")
}
