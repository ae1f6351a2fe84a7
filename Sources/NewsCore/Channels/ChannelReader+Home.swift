import Foundation

extension ChannelReader {
  /// The home screen's rows from the store (no request), reported as each is counted: the
  /// channels that fetch first, then those gathering their items from what that pass read (each
  /// channel is read once). A source that never answered says so, or says its failure when it
  /// fails run after run; a store that cannot be read is said as such, never taken for
  /// "never fetched".
  public func home(_ report: @Sendable (Int, ChannelRow) -> Void) async {
    let failures: [String: FeedFailures.Failure]
    switch feed {
    case .success(let feed): failures = feed.failures()
    case .failure: failures = [:]
    }
    var held: [Int: [Article]] = [:]
    // Each feed source's row, and what a hidden one (in its tags' lists only) holds.
    var rows: [String: Int] = [:]
    var hidden: [String: [Article]] = [:]
    for index in channels.indices {
      if case .feed(let source) = channels[index] { rows[source.name] = index }
    }
    for index in channels.indices where !channels[index].gathers {
      let raw: Raw?
      do {
        raw = try await self.raw(index, refresh: false, offline: true)
      } catch {
        // Offline, a failure is the store's or the cache's: what was kept cannot be read.
        report(
          index,
          ChannelRow(unread: nil, total: nil, status: .unreadable(Self.describe(error))))
        continue
      }
      guard let raw else {
        if case .feed(let source) = channels[index], let failure = failures[source.name] {
          report(
            index, ChannelRow(unread: nil, total: nil, status: .failing(failure.error)))
        } else if case .feed(let source) = channels[index], source.account != nil {
          // An account's feed is synced, never fetched: not yet (the account, or the feed
          // subscribed since its last sync).
          report(index, ChannelRow(unread: nil, total: nil, status: .synced(nil)))
        } else {
          report(index, ChannelRow(unread: nil, total: nil, status: .neverFetched))
        }
        continue
      }
      held[index] = raw.articles
      report(index, shaped(raw, marks: false).row)
    }
    for index in channels.indices where channels[index].gathers {
      let gathered: [Article]
      switch channels[index] {
      case .allUnread:
        gathered = channels.indices.flatMap { held[$0] ?? [] }
      case .tag(let tag):
        // Its sources' items as the first pass read them; a hidden source's (no row) read now.
        var tagged: [Article] = []
        for source in self.tagged where source.tags.contains(tag) {
          if let other = rows[source.name] {
            tagged += held[other] ?? []
          } else {
            if hidden[source.name] == nil {
              // Unreadable, it counts as empty here; its list says why.
              do {
                hidden[source.name] =
                  try await raw(of: .feed(source), refresh: false, offline: true)?.articles ?? []
              } catch {
                hidden[source.name] = []
              }
            }
            tagged += hidden[source.name] ?? []
          }
        }
        gathered = tagged
      default:
        do {
          guard let contents = try await contents(index, offline: true) else { continue }
          report(
            index, ChannelRow(unread: contents.unread, total: contents.total, status: .stored))
        } catch {
          report(
            index,
            ChannelRow(unread: nil, total: nil, status: .unreadable(Self.describe(error))))
        }
        continue
      }
      let raw = Raw(
        heading: channels[index].heading, freshness: .stored, articles: gathered.uniquedByID())
      var allUnread = false
      if case .allUnread = channels[index] { allUnread = true }
      let contents = shaped(raw, allUnread: allUnread, marks: false)
      report(index, ChannelRow(unread: contents.unread, total: contents.total, status: .stored))
    }
  }
}
