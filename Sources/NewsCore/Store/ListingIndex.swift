import Foundation

/// The `listings` file: which `listing-<slot>` file holds the listing of each query, and when it
/// was fetched. No ids: those are in the listing's own file, so the index stays a few kilobytes
/// however long the lists are.
struct ListingIndex: Codable, Sendable, Equatable {
  /// One query's listing.
  struct Entry: Codable, Sendable, Equatable {
    /// The listing file's number.
    var slot: Int?
    /// When the listing was fetched (the least recent is dropped first).
    var fetchedAt: Date
  }

  /// Query key → entry. (The index of earlier versions, a `Listing` per key with its ids, reads
  /// as this: the extra fields are ignored and the next save writes the small form.)
  var entries: [String: Entry]

  init(entries: [String: Entry] = [:]) {
    self.entries = entries
  }

  init(from decoder: any Decoder) throws {
    entries = try decoder.singleValueContainer().decode([String: Entry].self)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(entries)
  }

  static let fileName = StoreLayout.listingIndex

  static func slotName(_ slot: Int) -> String { StoreLayout.listing(slot) }

  /// The slot of a listing file's name (`listing-7` → 7), else `nil`.
  static func slot(ofFileNamed name: String) -> Int? {
    guard name.hasPrefix(StoreLayout.listingPrefix) else { return nil }
    return Int(name.dropFirst(StoreLayout.listingPrefix.count))
  }

  /// The smallest slot no entry uses.
  func freeSlot() -> Int {
    let used = Set(entries.values.compactMap(\.slot))
    return (0...).first { !used.contains($0) }!
  }

  /// Drops the least recently fetched entries past `count`; returns their slots.
  mutating func dropOldest(keeping count: Int) -> [Int] {
    guard entries.count > count else { return [] }
    let oldest = entries.sorted { $0.value.fetchedAt < $1.value.fetchedAt }
      .prefix(entries.count - count)
    for (key, _) in oldest { entries[key] = nil }
    return oldest.compactMap(\.value.slot)
  }
}
