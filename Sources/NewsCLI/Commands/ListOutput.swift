import Foundation
import NewsCore

/// Why a list comes from the store rather than the network.
enum Staleness {
  /// Fresh from the network.
  case fresh
  /// `--offline` was asked for.
  case offline
  /// The network or server failed with this message.
  case failed(String)
}

/// Stored data was asked for and there is none.
enum OfflineError: NewsError {
  case nothingStored(command: String)

  var message: String {
    switch self {
    case .nothingStored(let command):
      return "nothing stored for this query yet; run '\(command)' online (or 'news sync') first"
    }
  }

  var exitCode: ExitCode { .unavailable }
}

/// A list was printed, but the store could not keep it: the command fails after the output.
struct ListNotKeptError: NewsError {
  var underlying: any NewsError

  var message: String { "the list was shown but not kept: \(underlying.message)" }
  var exitCode: ExitCode { underlying.exitCode }
}

/// Prints a list of articles (text or JSON), stores it, and makes it the last listing so that
/// `news show <n>` can find its items. Shared by every list command.
struct ListOutput {
  var context: Context
  var configuration: Configuration
  /// The store, opened (and its key checked) before anything was fetched.
  var store: ArticleStore
  var format: OutputFormat
  var limit: Int?
  /// Words after "N of M" in the header (`found` for searches).
  var countSuffix = ""

  /// A page fresh from the network: stored first, then shown. A store that cannot keep it (a
  /// damaged file, a full disk) fails the command after the list is shown.
  func show(_ page: HeadlinesPage, key: String, heading: String) throws -> ExitCode {
    var shown = page
    if let limit { shown.articles = Array(page.articles.prefix(limit)) }
    for warning in page.warnings { context.warn(warning) }
    var notKept: (any NewsError)?
    do {
      try store.save(page, key: key, makeLast: false)
      try store.setLastListing(listing(shown, key: key))
    } catch let error as any NewsError {
      notKept = error
    }
    print(shown, heading: heading, stale: .fresh)
    if let notKept { throw ListNotKeptError(underlying: notKept) }
    return .success
  }

  /// A list read from the store (offline, or standing in for a failed request).
  func show(_ listing: Listing, _ articles: [Article], heading: String, stale: Staleness)
    throws -> ExitCode
  {
    var page = HeadlinesPage(
      provider: listing.provider, totalResults: listing.totalResults, articles: articles,
      fetchedAt: listing.fetchedAt)
    if let limit { page.articles = Array(page.articles.prefix(limit)) }
    if case .failed(let reason) = stale {
      let age = RelativeTime.describe(listing.fetchedAt, now: context.now())
      context.warn(
        "\(reason); showing the articles stored \(age == "just now" ? age : "from " + age)")
    }
    try record(self.listing(page, key: listing.key)) {
      print(page, heading: heading, stale: stale)
    }
    return .success
  }

  /// A list that is not a provider's page (bookmarks, search results).
  func show(_ articles: [Article], provider: String, heading: String) throws -> ExitCode {
    var page = HeadlinesPage(
      provider: provider, totalResults: articles.count, articles: articles,
      fetchedAt: context.now())
    if let limit { page.articles = Array(page.articles.prefix(limit)) }
    try record(listing(page, key: provider)) {
      print(page, heading: heading, stale: .fresh)
    }
    return .success
  }

  /// Prints, then records `listing` as the last list; a failure to record fails the command.
  private func record(_ listing: Listing, after printing: () -> Void) throws {
    printing()
    do {
      try store.setLastListing(listing)
    } catch let error as any NewsError {
      throw ListNotKeptError(underlying: error)
    }
  }

  private func listing(_ page: HeadlinesPage, key: String) -> Listing {
    Listing(
      key: key, provider: page.provider, ids: page.articles.map(\.id),
      totalResults: page.totalResults, fetchedAt: page.fetchedAt)
  }

  private func print(_ page: HeadlinesPage, heading: String, stale: Staleness) {
    switch format {
    case .text: break
    case .jsonLines:
      for article in page.articles {
        context.console.out(ArticleJSON.article(article).serialized() + "\n")
      }
      context.displayed()
      return
    case .json:
      var error: String?
      if case .failed(let reason) = stale { error = reason }
      let isStale: Bool
      if case .fresh = stale { isStale = false } else { isStale = true }
      context.console.out(
        ArticleJSON.list(page, stale: isStale, error: error).serialized(pretty: true) + "\n")
      context.displayed()
      return
    }
    var title = heading
    switch stale {
    case .fresh: break
    case .offline, .failed:
      title += " (stored " + RelativeTime.describe(page.fetchedAt, now: context.now()) + ")"
    }
    let renderer = ArticleListRenderer(
      style: context.style(configuration), width: context.width(configuration), now: context.now())
    context.console.out(renderer.render(page, heading: title, countSuffix: countSuffix))
    context.displayed()
  }
}
