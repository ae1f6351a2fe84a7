import FeedParsing
import Foundation
import NewsCore

/// What the world tells browse while it runs, as values: a list loaded or failed, a home row
/// read from the store, a full text, counts, a download or a command ended. ``BrowseState``
/// handles them as it handles keys (``BrowseState/apply(_:)``), so the session's loop decides
/// nothing itself and tests drive the state with events.
enum BrowseEvent: Sendable {
  /// A channel's list: from the store (`final` false: an answer may follow) or an answer.
  case loaded(channel: Int, ChannelContents, final: Bool)
  /// A channel's fetch failed.
  case failed(channel: Int, String)
  /// `R`'s fetch of the hidden sources ended: the lines of those that failed, and the rows to
  /// refresh now (the saved searches).
  case hiddenReloaded(failures: [String], then: [Int])
  /// A home row's counts and state, read from the store.
  case row(channel: Int, ChannelRow)
  /// An article's full text, as shown with it, or why it could not be had.
  case fullText(id: String, Article?, problem: String?)
  /// Kept full texts read for the filter, as articles showing them.
  case keptTexts([String: Article], problem: String?)
  /// An article's likes and comments, each `nil` when it could not be had (`problem` says why,
  /// in the footer).
  case counts(id: String, likes: Int?, comments: Int?, problem: String?)
  /// A download of an article's files ended: what to say, and whether its file is there.
  case downloaded(id: String, done: Bool, message: String)
  /// A command an article was sent to ended: what to say.
  case sent(String)
}

extension BrowseState {
  /// Handles `event` as of ``now``; returns what the session should do next.
  mutating func apply(_ event: BrowseEvent) -> [BrowseEffect] {
    switch event {
    case .loaded(let channel, let contents, let final):
      if let warning = contents.warnings.first, message == nil { message = warning }
      updateRow(
        channel, unread: contents.unread, total: contents.total,
        status: contents.freshness.text(now: now), loading: !final)
      var effects = final ? recountingGatherers(after: channel) : []
      // The account's sync brought its other feeds' items too: their rows are counted again
      // (those reloading say so themselves).
      if let account = contents.syncedAccount {
        let others = channels.indices.filter {
          $0 != channel && channels[$0].hasPrefix(account + "/") && home.indices.contains($0)
            && !home[$0].loading
        }
        for index in others { home[index].filled = false }
        if !others.isEmpty, !effects.contains(.loadHome) { effects.append(.loadHome) }
      }
      guard channel == self.channel, screen != .home else { return effects }
      effects += loaded(
        heading: contents.heading.text, freshness: contents.freshness.text(now: now),
        articles: contents.articles, read: contents.read, bookmarked: contents.bookmarked,
        withFullText: contents.withFullText, media: contents.media,
        downloaded: contents.downloaded, showsFullText: contents.showsFullText)
      loading = !final
      return effects
    case .failed(let channel, let reason):
      updateRow(
        channel, unread: nil, total: nil, status: failedStatus(reason, of: channel), failed: true)
      if channel == self.channel, screen != .home { failed(reason) }
      // The last answer of a reload may be a failure: what the others stored is counted too.
      return recountingGatherers(after: channel)
    case .hiddenReloaded(let failures, let then):
      hiddenLoading = false
      if let first = failures.first {
        message = failures.count == 1 ? first : "\(first) (and \(failures.count - 1) more)"
      }
      if !then.isEmpty { return [.refresh(channels: then)] }
      // The tags' lists hold the hidden sources' items: counted again once nothing is loading.
      return home.contains(where: \.loading) ? [] : [.loadHome]
    case .row(let channel, let row):
      // An answer that came first is not overwritten by what the store held; the lists that
      // gather the others' items are counted again every time.
      if row.failed {
        updateRow(
          channel, unread: nil, total: nil,
          status: failedStatus(row.status.text(now: now), of: channel), failed: true)
        if channel == self.channel, screen != .home { failed(row.status.text(now: now)) }
      } else if gatherers.contains(channel)
        || (home.indices.contains(channel) && !home[channel].filled)
      {
        updateRow(
          channel, unread: row.unread, total: row.total, status: row.status.text(now: now))
      }
    case .fullText(let id, let article, let problem):
      if let article {
        fullTexts[id] = .had(article, shown: true)
        withFullText.insert(id)
        if messageIsFullTextFetch { message = nil }
      } else {
        fullTexts[id] = nil
        message = problem
      }
    case .keptTexts(let texts, let problem):
      keptTexts.merge(texts) { _, new in new }
      if let problem { message = problem }
    case .counts(let id, let likes, let comments, let problem):
      counts[id] = .loaded(likes: likes, comments: comments)
      if let problem, message == nil { message = problem }
    case .downloaded(let id, let done, let text):
      if done { downloaded.insert(id) }
      message = text
    case .sent(let text):
      message = text
    }
    return []
  }
}

extension BrowseState {
  /// `loadHome` when `channel` (not a gathering list) was the last of a reload to answer: the
  /// lists that gather the others' items (All unread, the tags) are counted again.
  fileprivate func recountingGatherers(after channel: Int) -> [BrowseEffect] {
    !gatherers.contains(channel) && !home.contains(where: \.loading) ? [.loadHome] : []
  }
}
