import Foundation
import Synchronization

/// When each source was last answered `304 Not Modified`: the one thing an unchanged refresh
/// writes (`revalidated` in the cache directory, one small file for every source).
///
/// A `304` leaves the source's cache entry and its articles as they are: the entry's age is the
/// later of its own fetch time and this one. Once a day an unchanged source is still written in
/// full, so that its articles' "last seen" keeps retention from dropping what it still lists.
final class RevalidationTimes: Sendable {
  static let fileName = StoreLayout.revalidated
  /// Times older than this are dropped when the file is written (sources removed long ago).
  static let lifetime: TimeInterval = 30 * 86_400
  /// An unchanged source whose entry was written longer ago than this is written in full again.
  static let rewriteAfter: TimeInterval = 86_400

  private let store: EncryptedStore
  private let times = Mutex<[String: Double]?>(nil)

  init(store: EncryptedStore) {
    self.store = store
  }

  /// When `source` was last revalidated, if it was (the file is read once).
  func time(of source: String) -> Date? {
    let seconds = times.withLock { times -> Double? in
      if times == nil { times = (try? Self.read(from: store)) ?? [:] }
      return times?[source]
    }
    return seconds.map(Date.init(timeIntervalSince1970:))
  }

  /// The times the store holds (none when it holds no file), read by the store's own JSON
  /// reader: `JSONDecoder` took a tenth of `news sources` at 10,000 sources. A file that reader
  /// leaves (none that `JSONEncoder` writes) is read by `JSONDecoder`.
  static func read(from store: EncryptedStore) throws -> [String: Double] {
    guard let bytes = try store.readBytes(fileName) else { return [:] }
    if case .object(let members)? = ConfigJSONParser.value(of: bytes, everyNumber: true) {
      var times = [String: Double](minimumCapacity: members.count)
      for case (let source, .number(let seconds)) in members { times[source] = seconds }
      if times.count == members.count { return times }
    }
    return try JSONDecoder().decode([String: Double].self, from: Data(bytes))
  }

  /// Records that `sources` were revalidated at their dates, in one write.
  func record(_ revalidated: [String: Date], now: Date) throws {
    guard !revalidated.isEmpty else { return }
    let oldest = now.timeIntervalSince1970 - Self.lifetime
    let written = try store.update(Self.fileName, initial: [String: Double]()) { times in
      for (source, date) in revalidated { times[source] = date.timeIntervalSince1970 }
      times = times.filter { $0.value >= oldest }
    }
    times.withLock { $0 = written }
  }
}
