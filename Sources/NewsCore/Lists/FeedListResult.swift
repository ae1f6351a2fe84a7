import FeedParsing

/// The feed as it is shown: the sources' reports (one link one item, only unread ones when
/// asked, cut to the limit), which items are read, each source's unread count, and what the
/// user should be told.
///
/// The items stay packed (``FeedItemPack``) until shown: ``report(at:)`` decodes one source's,
/// so that a feed of 1,000 sources is written a source at a time.
public struct FeedListResult: Sendable {
  /// The reports, in the order of the sources, without their items (``report(at:)`` has them).
  public private(set) var sourceReports: [FeedSourceReport]
  /// The items to show of each source, in the order of ``sourceReports``.
  let packs: [FeedItemPack]
  /// The later sources listing an item shown (its ``FeedItem/alsoIn``), by id.
  let alsoIn: [String: [String]]
  /// Enclosures the store keeps for items shown without them (answered from the cache), by id.
  let enclosures: [String: [Enclosure]]
  /// The ids of the shown items that are read.
  public var read: Set<String>
  /// Each source's unread items (before `--unread` and `--limit`).
  public var unread: [String: Int]
  /// The ids of the shown items the killfile matches (only with `showIgnored`).
  public var ignored: Set<String> = []
  /// Whether the items the killfile matches are shown (`--show-ignored`).
  public var showsIgnored = false
  /// How many items of each source the killfile left out (none with `--show-ignored`).
  public var ignoredCounts: [String: Int] = [:]
  /// How many items of each source are listed under a source before it (one link one item).
  public var listedAbove: [String: Int] = [:]
  /// The sources `--limit` cut short.
  public var cutByLimit: Set<String>
  /// Warnings for standard error (read marks that cannot be read).
  public var warnings: [String]
  /// The marks the list was shown with (to stamp again those still listed).
  let marks: ReadMarks

  init(
    sourceReports: [FeedSourceReport], packs: [FeedItemPack], alsoIn: [String: [String]],
    enclosures: [String: [Enclosure]], read: Set<String>, unread: [String: Int],
    cutByLimit: Set<String>, warnings: [String], marks: ReadMarks
  ) {
    self.sourceReports = sourceReports
    self.packs = packs
    self.alsoIn = alsoIn
    self.enclosures = enclosures
    self.read = read
    self.unread = unread
    self.cutByLimit = cutByLimit
    self.warnings = warnings
    self.marks = marks
  }

  /// Whether every source failed (the command then fails, after showing what it could); none
  /// to fetch is no failure: a feed of no source is empty.
  public var everyFailed: Bool {
    !sourceReports.isEmpty && sourceReports.allSatisfy { $0.status == .failed }
  }

  /// The report of the source at `index` with the items it shows, decoded.
  ///
  /// - Parameter bodies: `false` leaves each item's content and categories out (a list in text
  ///   shows neither; a feed's content can be most of its bytes).
  public func report(at index: Int, bodies: Bool = true) -> FeedSourceReport {
    var report = sourceReports[index]
    report.items = packs[index].items(bodies: bodies)
    guard !alsoIn.isEmpty || !enclosures.isEmpty else { return report }
    for item in report.items.indices {
      let id = report.items[item].id
      if let later = alsoIn[id] { report.items[item].alsoIn = later }
      if report.items[item].enclosures.isEmpty, let kept = enclosures[id] {
        report.items[item].enclosures = kept
      }
    }
    return report
  }

  /// The reports with their items, decoded a source at a time as they are read.
  public var reports: LazyMapSequence<Range<Int>, FeedSourceReport> {
    sourceReports.indices.lazy.map { report(at: $0) }
  }

  /// ``reports`` without the items' content and categories, for a list in text.
  public var listedReports: LazyMapSequence<Range<Int>, FeedSourceReport> {
    sourceReports.indices.lazy.map { report(at: $0, bodies: false) }
  }

  /// The ids of every item shown, numbered across sources in this order.
  public var ids: [String] { packs.flatMap(\.ids) }

  /// How many items are shown.
  public var itemCount: Int { packs.reduce(0) { $0 + $1.count } }

  /// Every item shown, numbered across sources in this order (all decoded at once).
  public var items: [FeedItem] { reports.flatMap(\.items) }
}
