import Foundation
import Synchronization

/// How far each download of a run has come: written by the transfers, read by whoever draws
/// progress bars.
public final class DownloadProgress: Sendable {
  /// One file on its way.
  public struct Entry: Sendable, Equatable {
    /// The file's name (its last path component).
    public var name: String
    /// Bytes in the file so far.
    public var bytes: Int64
    /// Its size, when the server said.
    public var total: Int64?
    /// The bytes it had when this run took it up (a resumed part).
    public var resumedFrom: Int64
    /// When this run took it up.
    public var startedAt: Date

    /// Creates an entry.
    public init(name: String, bytes: Int64, total: Int64?, resumedFrom: Int64, startedAt: Date) {
      self.name = name
      self.bytes = bytes
      self.total = total
      self.resumedFrom = resumedFrom
      self.startedAt = startedAt
    }
  }

  private let entries = Mutex<[Int: Entry]>([:])

  /// Creates an empty record.
  public init() {}

  /// The files being downloaded now, in the order they were asked for.
  public func running() -> [Entry] {
    entries.withLock { $0.sorted { $0.key < $1.key }.map(\.value) }
  }

  func start(_ index: Int, name: String, at date: Date) {
    entries.withLock {
      $0[index] = Entry(name: name, bytes: 0, total: nil, resumedFrom: 0, startedAt: date)
    }
  }

  /// The first count of an attempt: what the part held when it began.
  func resume(_ index: Int, from bytes: Int64) {
    entries.withLock {
      $0[index]?.resumedFrom = bytes
      $0[index]?.bytes = bytes
    }
  }

  func update(_ index: Int, bytes: Int64, total: Int64?) {
    entries.withLock {
      $0[index]?.bytes = bytes
      if let total { $0[index]?.total = total }
    }
  }

  func end(_ index: Int) {
    _ = entries.withLock { $0.removeValue(forKey: index) }
  }
}
