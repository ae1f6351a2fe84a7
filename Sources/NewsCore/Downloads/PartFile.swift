import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A download's `.part` file as bytes arrive: the ``BodyStream`` of one attempt.
///
/// Opened at its end (what earlier attempts kept); the response's head says whether the server
/// continues from there (`206` from that very byte) or starts over (`200`: the file is emptied).
/// Every chunk is written at once, so a kill leaves on disk all that arrived before it.
final class PartFile: Sendable {
  /// Why an attempt must start over from byte 0 (a range the server cannot or did not serve).
  struct Restart: Error {}

  private struct State {
    var descriptor: Int32
    /// Where this attempt's bytes begin in the file.
    var offset: Int64
    /// Bytes written by this attempt.
    var written: Int64 = 0
    /// The whole file's size, when the server said.
    var total: Int64?
    /// The response's `ETag` (strong) or `Last-Modified`.
    var validator: String?
    /// Whether the head was taken.
    var began = false
    /// Whether the server said the file ends where the part does (a `416` naming the part's
    /// size as the whole): the answer's body is no part of the file.
    var endsAtPart = false
  }

  let path: String
  private let url: String
  private let limit: Int64
  private let state: Mutex<State>
  private let progress: @Sendable (_ bytes: Int64, _ total: Int64?) -> Void
  private let onHead: @Sendable (_ validator: String?) -> Void

  /// Opens (or makes) the part file at `path`, positioned at its end: `offset` is what it holds.
  /// `progress` hears of every chunk; `onHead` of the response's validator once its head came.
  /// `whenBusy` says whether to try the lock again (having waited), when this run's earlier
  /// attempt held the part; `nil`: a lock held elsewhere is refused at once.
  ///
  /// - Throws: ``DownloadError/write(path:reason:)``, ``DownloadError/busy(path:)``.
  init(
    path: String, url: String, limit: Int64, whenBusy: (@Sendable () -> Bool)? = nil,
    progress: @escaping @Sendable (_ bytes: Int64, _ total: Int64?) -> Void,
    onHead: @escaping @Sendable (_ validator: String?) -> Void = { _ in }
  ) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw DownloadError.write(path: path, reason: Self.reason(errno)) }
    // One writer a part: a second `news download` of the same file is refused, not interleaved.
    // The lock of this run's earlier attempt is its open file's, which a child started at that
    // moment (a hook, a player) holds a copy of until it runs its program: waited for a while.
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0, errno == EWOULDBLOCK,
      whenBusy?() == true
    {}
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      let busy = errno == EWOULDBLOCK
      close(descriptor)
      throw busy
        ? DownloadError.busy(path: path)
        : DownloadError.write(path: path, reason: Self.reason(errno))
    }
    let end = lseek(descriptor, 0, SEEK_END)
    guard end >= 0 else {
      close(descriptor)
      throw DownloadError.write(path: path, reason: Self.reason(errno))
    }
    self.path = path
    self.url = url
    self.limit = limit
    self.progress = progress
    self.onHead = onHead
    state = Mutex(State(descriptor: descriptor, offset: Int64(end)))
  }

  deinit { release() }

  /// Waits a millisecond at a time, half a second at most: how long the copy of an earlier
  /// attempt's lock that a child process holds until it runs its program may last.
  static func waitingBriefly() -> @Sendable () -> Bool {
    let left = Mutex(500)
    return {
      guard
        left.withLock({ left in
          left -= 1
          return left >= 0
        })
      else { return false }
      usleep(1_000)
      return true
    }
  }

  /// Closes the file, and lets its lock go, at the end of an attempt: a transfer that still
  /// holds the stream a moment longer (a client's thread finishing) must not make the next
  /// attempt find its own part busy. Bytes that come after are refused.
  func release() {
    state.withLock { state in
      if state.descriptor >= 0 { close(state.descriptor) }
      state.descriptor = -1
    }
  }

  /// What the part held before this attempt.
  var offset: Int64 { state.withLock { $0.offset } }
  /// Bytes this attempt wrote.
  var written: Int64 { state.withLock { $0.written } }
  /// Bytes in the file now.
  var size: Int64 { state.withLock { $0.offset + $0.written } }
  /// The validator of the response, once its head came.
  var validator: String? { state.withLock { $0.validator } }

  /// The stream a transfer writes through.
  var stream: BodyStream {
    BodyStream(
      begin: { [self] in
        try begin(status: $0.status, headers: $0.headers)
      },
      receive: { [self] in try receive($0) })
  }

  /// Takes the head of the response (when no body came, the transfer's end does).
  ///
  /// - Parameter headers: by lower-case name.
  func begin(status: Int, headers: [String: String]) throws {
    try state.withLock { state in
      guard !state.began else { return }
      state.began = true
      switch status {
      case 206:
        let range = headers["content-range"].flatMap(Self.contentRange)
        // A range that does not continue the part cannot be spliced onto it.
        guard let range, range.start == state.offset else { throw Restart() }
        state.total = range.total
      case 200..<300:
        guard ftruncate(state.descriptor, 0) == 0, lseek(state.descriptor, 0, SEEK_SET) == 0 else {
          throw DownloadError.write(path: path, reason: Self.reason(errno))
        }
        state.offset = 0
        state.total = headers["content-length"].flatMap { Int64($0) }
      case 416 where state.offset > 0:
        // `bytes */900` for a part of 900 bytes: the server says the end came (its first
        // length said more than it sent). The file is whole at what came.
        let total = headers["content-range"].flatMap(Self.contentRangeTotal)
        guard total == state.offset else { throw Restart() }
        state.total = total
        state.endsAtPart = true
      default:
        throw DownloadError.status(url: url, code: status)
      }
      if let total = state.total, total > limit {
        throw DownloadError.tooLarge(url: url, limit: limit)
      }
      if let etag = headers["etag"], !etag.hasPrefix("W/") {
        state.validator = etag
      } else {
        state.validator = headers["last-modified"]
      }
    }
    let (size, total, validator) = state.withLock {
      ($0.offset + $0.written, $0.total, $0.validator)
    }
    onHead(validator)
    progress(size, total)
  }

  /// Writes a chunk, refusing it past the limit.
  func receive(_ chunk: UnsafeRawBufferPointer) throws {
    let (size, total) = try state.withLock { state in
      if state.endsAtPart { return (state.offset, state.total) }
      guard state.offset + state.written + Int64(chunk.count) <= limit else {
        throw DownloadError.tooLarge(url: url, limit: limit)
      }
      if let failure = FileDescriptor.writeAll(state.descriptor, chunk) {
        throw DownloadError.write(path: path, reason: Self.reason(failure))
      }
      state.written += Int64(chunk.count)
      return (state.offset + state.written, state.total)
    }
    progress(size, total)
  }

  /// Checks that the whole file came, flushes it to disk and closes it.
  ///
  /// - Throws: ``DownloadError/interrupted(url:reason:kept:part:)`` when bytes are missing,
  ///   ``DownloadError/write(path:reason:)``.
  func complete() throws {
    try state.withLock { state in
      let size = state.offset + state.written
      if let total = state.total, size < total {
        throw DownloadError.interrupted(
          url: url, reason: "the server sent \(size) of \(total) bytes", kept: size, part: path)
      }
      guard fsync(state.descriptor) == 0 else {
        throw DownloadError.write(path: path, reason: Self.reason(errno))
      }
      close(state.descriptor)
      state.descriptor = -1
    }
  }

  /// Whether the server said the file ends where the part did (after its first answer's
  /// length said more): the file is whole at what came.
  var endedAtPart: Bool { state.withLock { $0.endsAtPart } }

  /// The total of an unsatisfied range, `bytes */900`.
  static func contentRangeTotal(_ text: String) -> Int64? {
    let value = text.trimmingCharacters(in: .whitespaces).lowercased()
    guard value.hasPrefix("bytes */") else { return nil }
    return Int64(value.dropFirst("bytes */".count))
  }

  /// `bytes 100-199/1000` as its start and total (`nil` for `*`).
  static func contentRange(_ text: String) -> (start: Int64, total: Int64?)? {
    let value = text.trimmingCharacters(in: .whitespaces)
    guard value.lowercased().hasPrefix("bytes ") else { return nil }
    let spec = value.dropFirst(6).split(separator: "/", maxSplits: 1)
    guard spec.count == 2, let dash = spec[0].firstIndex(of: "-"),
      let start = Int64(spec[0][..<dash].trimmingCharacters(in: .whitespaces))
    else { return nil }
    return (start, Int64(spec[1].trimmingCharacters(in: .whitespaces)))
  }

  static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
