import Synchronization

/// Read marks loaded one file (shard) at a time, when an article of that shard is first asked
/// about, then kept for the rest of the run: what a query narrowed by the word index reads
/// instead of every mark. A file that cannot be read counts as no marks for that lookup, and
/// the error is kept for ``check()``.
///
/// With them, the segments read through (``FullyReadSegments``) as the store kept them before
/// any mark was read, and those the run finds read through, for the store to keep.
public final class ReadMarkShards: Sendable {
  private let load: @Sendable (Int) throws -> ReadMarks
  private let loaded = Mutex<[Int: ReadMarks]>([:])
  private let failure = Mutex<(any Error)?>(nil)
  /// The segments read through as the store kept them (`nil`: none kept, or unreadable).
  let fullyRead: FullyReadSegments?
  /// Now and the marks' lifetime, in seconds: a segment whose oldest mark expired is not read
  /// through any more.
  private let now: Double
  private let lifetime: Double
  /// The segments found read through in this run, with the stamp of their oldest mark.
  private let found = Mutex<[Int: UInt32]>([:])

  /// Marks read by `load` (the marks of one shard, the log applied); `fullyRead` as the store
  /// kept it, read before any mark.
  init(
    fullyRead: FullyReadSegments? = nil, now: Double = 0, lifetime: Double = 0,
    load: @escaping @Sendable (Int) throws -> ReadMarks
  ) {
    self.fullyRead = fullyRead
    self.now = now
    self.lifetime = lifetime
    self.load = load
  }

  /// Whether article `id` is marked read.
  public func contains(_ id: String) -> Bool {
    shard(of: ReadMarks.key(id))?.contains(id) ?? false
  }

  /// The marks of the shard holding `key`, loaded when first asked; `nil` when its file cannot
  /// be read (kept for ``check()``).
  private func shard(of key: UInt64) -> ReadMarks? {
    let shard = ReadMarks.shard(of: key)
    if let marks = loaded.withLock({ $0[shard] }) { return marks }
    let marks: ReadMarks
    do {
      marks = try load(shard)
    } catch {
      failure.withLock { $0 = $0 ?? error }
      return nil
    }
    loaded.withLock { $0[shard] = marks }
    return marks
  }

  /// How many files were read.
  public var shardsRead: Int { loaded.withLock { $0.count } }

  /// Throws the first error a lookup met (an answer built on it would be wrong).
  public func check() throws {
    if let error = failure.withLock({ $0 }) { throw error }
  }

  // MARK: Segments read through

  /// Whether every article of segment `number` is known read without reading its ids.
  func isFullyRead(_ number: Int) -> Bool {
    fullyRead?.covers(number, now: now, lifetime: lifetime) ?? false
  }

  /// Whether every one of `ids`, the ids of segment `number`, is marked read: if so the segment
  /// is noted as read through (``foundFullyRead``). Stops at the first unread one.
  func noteIfAllRead(_ ids: [String], segment number: Int) -> Bool {
    var oldest = UInt32.max
    for id in ids {
      guard let marks = shard(of: ReadMarks.key(id)), let stamp = marks.stamp(of: id) else {
        return false
      }
      oldest = min(oldest, ReadMarks.time(stamp))
    }
    found.withLock { $0[number] = oldest }
    return true
  }

  /// The segments this run found read through, with the stamp of their oldest mark.
  var foundFullyRead: [Int: UInt32] { found.withLock { $0 } }
}
