import Synchronization

/// Read marks loaded one file (shard) at a time, when an article of that shard is first asked
/// about, then kept for the rest of the run: what a query narrowed by the word index reads
/// instead of every mark. A file that cannot be read counts as no marks for that lookup, and
/// the error is kept for ``check()``.
public final class ReadMarkShards: Sendable {
  private let load: @Sendable (Int) throws -> ReadMarks
  private let loaded = Mutex<[Int: ReadMarks]>([:])
  private let failure = Mutex<(any Error)?>(nil)

  /// Marks read by `load` (the marks of one shard, the log applied).
  init(load: @escaping @Sendable (Int) throws -> ReadMarks) {
    self.load = load
  }

  /// Whether article `id` is marked read.
  public func contains(_ id: String) -> Bool {
    let shard = ReadMarks.shard(of: ReadMarks.key(id))
    if let marks = loaded.withLock({ $0[shard] }) { return marks.contains(id) }
    let marks: ReadMarks
    do {
      marks = try load(shard)
    } catch {
      failure.withLock { $0 = $0 ?? error }
      return false
    }
    loaded.withLock { $0[shard] = marks }
    return marks.contains(id)
  }

  /// How many files were read.
  public var shardsRead: Int { loaded.withLock { $0.count } }

  /// Throws the first error a lookup met (an answer built on it would be wrong).
  public func check() throws {
    if let error = failure.withLock({ $0 }) { throw error }
  }
}
