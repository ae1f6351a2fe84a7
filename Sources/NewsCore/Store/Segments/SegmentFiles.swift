import Synchronization

/// Segment files kept decrypted by a long-running reader of the store (`news serve`), up to a
/// number of bytes, the least recently read let go first: an app asking a page of articles, then
/// the next, reads the same chunks of each source's newest segment again, and decrypting them was
/// two fifths of each page's cost. A segment's files never change under its number (numbers are
/// never reused), so what is kept is what the store holds as long as the segment is listed.
///
/// The files are kept in a few parts by name, each with its own lock and its share of the
/// budget: sixteen requests at once each looking up a dozen files spun on one lock.
public final class SegmentFiles: Sendable {
  private struct Kept {
    var files: [String: (bytes: [UInt8], used: Int)] = [:]
    var size = 0
    var clock = 0
  }

  /// One part of the files, with its lock.
  private final class Part: Sendable {
    let kept = Mutex(Kept())
  }

  private let budget: Int
  private let parts: [Part]

  /// Keeps at most `budget` bytes of files (8 MB unless said: 64 chunks of 256 articles), in
  /// `parts` parts of an equal share.
  public init(budget: Int = 8 << 20, parts: Int = 4) {
    self.parts = (0..<max(1, parts)).map { _ in Part() }
    self.budget = max(0, budget) / self.parts.count
  }

  /// How many bytes it holds.
  var size: Int { parts.map { $0.kept.withLock { $0.size } }.reduce(0, +) }

  /// The bytes of the file `name` of segment `info`, kept or read by `read` (and kept, when
  /// they fit). A file is kept for the segment as the manifest lists it (its number and count).
  func bytes(_ name: String, of info: SegmentInfo, read: () throws -> [UInt8]) throws -> [UInt8] {
    try bytes("\(name) \(info.count)", read: read)
  }

  /// The bytes kept under `name`, or read by `read` (and kept, when they fit).
  func bytes(_ name: String, read: () throws -> [UInt8]) throws -> [UInt8] {
    var hasher = Hasher()
    hasher.combine(name)
    let part = parts[Int(UInt(bitPattern: hasher.finalize()) % UInt(parts.count))]
    let found = part.kept.withLock { kept -> [UInt8]? in
      guard kept.files[name] != nil else { return nil }
      kept.clock += 1
      kept.files[name]?.used = kept.clock
      return kept.files[name]?.bytes
    }
    if let found { return found }
    let bytes = try read()
    guard bytes.count <= budget else { return bytes }
    part.kept.withLock { kept in
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
