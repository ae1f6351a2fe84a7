import Foundation

/// How often a source posts: the mean interval of its last items up to when they were fetched
/// (Miniflux's `entry_frequency`, read from the items rather than counted by week). The gap
/// since the newest item counts as one of the intervals, so a feed that posted hourly for a day
/// and then fell silent for a month is asked less and less often, not hourly for ever.
enum PostingRate {
  /// How many of the newest items are looked at.
  static let window = 10

  /// Seconds between posts, as `items` dated them when fetched at `fetchedAt`; `nil` when none
  /// is dated. A date after `fetchedAt` counts as `fetchedAt`.
  static func interval(of items: [FeedItem], at fetchedAt: Date) -> Double? {
    interval(of: items.compactMap(\.publishedAt), at: fetchedAt)
  }

  /// Seconds between posts of items dated `dates`, fetched at `fetchedAt`.
  static func interval(of dates: [Date], at fetchedAt: Date) -> Double? {
    let end = fetchedAt.timeIntervalSince1970
    let newest = dates.map { min($0.timeIntervalSince1970, end) }.sorted(by: >).prefix(window)
    guard let oldest = newest.last else { return nil }
    return (end - oldest) / Double(newest.count)
  }
}
