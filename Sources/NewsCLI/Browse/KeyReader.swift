import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the terminal's keys for `news browse` on a thread of its own, and stops reading while
/// another program has the terminal (a browser, a player): every key typed meanwhile is that
/// program's, none taken by browse and acted on once it is back.
///
/// The thread waits in `poll(2)` on standard input and on a pipe of its own, so that ``pause()``
/// can wake it; it then parks until ``resume()``. Its state is guarded by one condition, hence
/// `@unchecked Sendable`.
final class KeyReader: @unchecked Sendable {
  /// The bytes of one `read(2)` of standard input; `[0x03]` (Ctrl-C) once it has ended.
  private let bytes: @Sendable ([UInt8]) -> Void
  /// Called when an escape byte is followed by nothing for 30 ms (a lone Esc, not a sequence).
  private let quiet: @Sendable () -> Void
  /// The read and write ends of the pipe that wakes the thread.
  private let wake: (read: Int32, write: Int32)
  private let condition = NSCondition()
  /// Asked to stop reading (guarded by `condition`).
  private var paused = false
  /// Parked, reading nothing until resumed (guarded by `condition`).
  private var parked = false
  /// Standard input has ended, and the thread with it (guarded by `condition`).
  private var ended = false

  init(bytes: @escaping @Sendable ([UInt8]) -> Void, quiet: @escaping @Sendable () -> Void) {
    self.bytes = bytes
    self.quiet = quiet
    var ends: [Int32] = [-1, -1]
    if pipe(&ends) == 0 {
      for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    }
    wake = (ends[0], ends[1])
  }

  deinit {
    if wake.read >= 0 {
      close(wake.read)
      close(wake.write)
    }
  }

  /// Starts reading, on a thread of its own.
  func start() {
    let thread = Thread { [self] in run() }
    thread.start()
  }

  /// Stops reading keys, returning once the thread reads no more (or standard input has ended).
  /// Without its pipe (none could be made: no descriptor left) the thread cannot be woken, and
  /// keys are read on, as before there was a pause.
  func pause() {
    guard wake.write >= 0 else { return }
    condition.lock()
    paused = true
    condition.unlock()
    var byte: UInt8 = 1
    _ = write(wake.write, &byte, 1)
    condition.lock()
    while !parked, !ended { condition.wait() }
    condition.unlock()
  }

  /// Reads keys again.
  func resume() {
    condition.lock()
    paused = false
    condition.broadcast()
    condition.unlock()
  }

  private func run() {
    var buffer = [UInt8](repeating: 0, count: 256)
    while true {
      condition.lock()
      while paused {
        parked = true
        condition.broadcast()
        condition.wait()
      }
      parked = false
      condition.unlock()
      var descriptors = [
        pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
        pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&descriptors, wake.read >= 0 ? 2 : 1, -1)
      if ready < 0, errno == EINTR { continue }
      if ready > 0, descriptors[1].revents != 0 {
        // Woken by pause(): the byte taken, the gate above parks the thread.
        var drained = [UInt8](repeating: 0, count: 64)
        _ = read(wake.read, &drained, drained.count)
        continue
      }
      let count =
        ready > 0 ? buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, 256) } : -1
      if count < 0, errno == EINTR { continue }
      guard count > 0 else {
        condition.lock()
        ended = true
        condition.broadcast()
        condition.unlock()
        bytes([0x03])
        return
      }
      bytes(Array(buffer[0..<count]))
      if buffer[count - 1] == 0x1B {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        if poll(&descriptor, 1, 30) == 0 { quiet() }
      }
    }
  }
}
