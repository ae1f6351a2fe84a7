import Synchronization

/// Segment files kept decrypted by a long-running reader of the store (`news serve`), up to a
/// number of bytes, the least recently read let go first: an app asking a page of articles, then
/// the next, reads the same chunks of each source's newest segment again, and decrypting them was
/// two fifths of each page's cost. A segment's files never change under its number (numbers are
/// never reused), so what is kept is what the store holds as long as the segment is listed.
public final class SegmentFiles: Sendable {
  private struct Kept {
    var files: [String: (bytes: [UInt8], used: Int)] = [:]
    var size = 0
    var clock = 0
  }

  private let budget: Int
  private let kept = Mutex(Kept())

  /// Keeps at most `budget` bytes of files (8 MB unless said: 64 chunks of 256 articles).
  public init(budget: Int = 8 << 20) {
    self.budget = max(0, budget)
  }

  /// How many bytes it holds.
  var size: Int { kept.withLock { $0.size } }

  /// The bytes of the file `name`, kept or read by `read` (and kept, when they fit).
  func bytes(_ name: String, read: () throws -> [UInt8]) throws -> [UInt8] {
    let found = kept.withLock { kept -> [UInt8]? in
      guard let file = kept.files[name] else { return nil }
      kept.clock += 1
      kept.files[name]?.used = kept.clock
      return file.bytes
    }
    if let found { return found }
    let bytes = try read()
    guard bytes.count <= budget else { return bytes }
    kept.withLock { kept in
      if let before = kept.files[name] { kept.size -= before.bytes.count }
      kept.clock += 1
      kept.files[name] = (bytes, kept.clock)
      kept.size += bytes.count
      while kept.size > budget,
        let oldest = kept.files.min(by: { $0.value.used < $1.value.used })
      {
        kept.files[oldest.key] = nil
        kept.size -= oldest.value.bytes.count
      }
    }
    return bytes
  }
}
