/// The segment filters of the packs one search looks in (``SegmentFilter``), each pack's read
/// once, when the search first comes to one of its segments.
struct PackFilters {
  private let store: EncryptedStore
  /// By pack number; `nil` for a pack without filters.
  private var read: [Int: [SegmentFilter?]?] = [:]

  init(store: EncryptedStore) {
    self.store = store
  }

  /// Whether the segment of `info` may hold a record the index narrows `branches` to: `false`
  /// only when its filter says none does (a segment of its own files, in a pack without
  /// filters, or asked for no run, is always opened).
  mutating func mayHold(any branches: [[IndexRun]], _ info: SegmentInfo) -> Bool {
    guard !branches.isEmpty, let place = info.pack, place.index > 0 else { return true }
    if read[place.pack] == nil {
      read[place.pack] = .some(SegmentPack.filters(ofPackAt: place, in: store))
    }
    guard let filters = read[place.pack]!, place.index <= filters.count,
      let filter = filters[place.index - 1]
    else { return true }
    return filter.mayHold(any: branches)
  }
}
