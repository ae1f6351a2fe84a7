#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A terminal's modes (`termios`) kept in memory allocated for them, rather than in a Swift
/// global or local: the C library writes the whole record (`tcgetattr`), and a variable the
/// compiler lays out itself may be smaller than that record (AddressSanitizer found a global
/// emitted as 57 bytes for a 60-byte `termios`). Never freed: a process keeps at most a few.
struct TerminalModes: @unchecked Sendable {
  /// The record, which `tcgetattr` and `tcsetattr` are handed.
  let record: UnsafeMutablePointer<termios>

  /// Zeroed modes, to be read with ``read(_:)`` or copied with ``copy()``.
  init() {
    record = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    UnsafeMutableRawPointer(record).initializeMemory(
      as: UInt8.self, repeating: 0, count: MemoryLayout<termios>.stride)
  }

  /// Reads the modes of `descriptor`; `false` when it is no terminal.
  func read(_ descriptor: Int32) -> Bool {
    tcgetattr(descriptor, record) == 0
  }

  /// Sets `descriptor`'s modes to these (async-signal-safe: only `tcsetattr`).
  @discardableResult
  func apply(to descriptor: Int32) -> Bool {
    tcsetattr(descriptor, TCSAFLUSH, record) == 0
  }

  /// Other modes, equal to these, in a record of their own.
  func copy() -> TerminalModes {
    let copy = TerminalModes()
    UnsafeMutableRawPointer(copy.record).copyMemory(
      from: UnsafeRawPointer(record), byteCount: MemoryLayout<termios>.size)
    return copy
  }

  /// Copies `other`'s modes into this record.
  func set(from other: TerminalModes) {
    UnsafeMutableRawPointer(record).copyMemory(
      from: UnsafeRawPointer(other.record), byteCount: MemoryLayout<termios>.size)
  }

  /// Frees the record (for modes made for one call; the global ones are never freed).
  func free() {
    record.deallocate()
  }
}
