import Foundation
import NewsCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A program a test starts (`news` itself, a shell, a real server), with `posix_spawn` as `news`
/// starts its own children (``ChildProcess``), not with Foundation's `Process`: whose `run()`
/// reads past the end of `readdir`'s buffer once the test process holds about 1,340
/// descriptors, which the suites running in parallel reach (AddressSanitizer reported it).
///
/// Its state is guarded by a mutex, hence `@unchecked Sendable`.
package final class Spawned: @unchecked Sendable {
  package typealias Stream = ChildProcess.Stream

  private let child: ChildProcess
  /// How it ended, once reaped.
  private let ending = Mutex<ChildProcess.Termination?>(nil)
  /// Its standard input's write end while open (-1 once closed, or when not a pipe): closed
  /// once only, as a second `close` of the number could close what another thread opened
  /// under it since (a test read the store's key check through a descriptor closed so).
  private let inputEnd: Mutex<Int32>

  /// Starts `program` with `arguments` and `environment` (the test process's own when `nil`),
  /// in `directory` when given, in a process group of its own (so that ``kill(_:)`` reaches
  /// whatever it started).
  package init(
    _ program: URL, arguments: [String] = [], environment: [String: String]? = nil,
    directory: URL? = nil, input: Stream = .null, output: Stream = .null, errors: Stream = .null
  ) throws {
    do {
      child = try ChildProcess.spawn(
        program: program.path, arguments: arguments,
        environment: environment ?? ProcessInfo.processInfo.environment,
        streams: ChildProcess.Streams(input: input, output: output, errors: errors),
        ownGroup: true, directory: directory?.path)
    } catch {
      throw SpawnError.notStarted(program: program.path, reason: error.reason)
    }
    inputEnd = Mutex(child.input)
  }

  deinit {
    for descriptor in [inputEnd.withLock { $0 }, child.output, child.errors] where descriptor >= 0 {
      close(descriptor)
    }
  }

  /// Its process id (and its group's).
  package var pid: pid_t { child.pid }

  /// Its standard input's write end, when a pipe and not closed by ``closeInput()`` (else -1).
  package var input: Int32 { inputEnd.withLock { $0 } }

  /// Closes its standard input's pipe, so that it reads the end.
  package func closeInput() {
    let descriptor = inputEnd.withLock { end in
      defer { end = -1 }
      return end
    }
    if descriptor >= 0 { close(descriptor) }
  }

  /// Its standard output's read end, when a pipe.
  package var output: FileHandle {
    FileHandle(fileDescriptor: child.output, closeOnDealloc: false)
  }

  /// Its standard error's read end, when a pipe.
  package var errors: FileHandle {
    FileHandle(fileDescriptor: child.errors, closeOnDealloc: false)
  }

  /// Whether it has not ended yet (reaping it when it has).
  package var isRunning: Bool {
    ending.withLock { ending in
      guard ending == nil else { return false }
      var status: Int32 = 0
      guard waitpid(child.pid, &status, WNOHANG) == child.pid else { return true }
      ending = ChildProcess.Termination(waitStatus: status)
      return false
    }
  }

  /// Waits for it to end (on a thread of its own: ``onOwnThread(_:)``); how it ended.
  @discardableResult
  package func wait() async -> ChildProcess.Termination {
    await onOwnThread { self.waitBlocking() }
  }

  /// ``wait()`` holding the calling thread: for set-up and tear-down that cannot suspend.
  package func waitBlocking() -> ChildProcess.Termination {
    if let ended = ending.withLock({ $0 }) { return ended }
    let termination = child.waitForExit()
    ending.withLock { $0 = $0 ?? termination }
    return termination
  }

  /// Its exit status once ended (waiting for it), or the signal that ended it.
  package var status: Int32 { get async { await wait().status } }

  /// Sends `signal` to its whole group.
  package func kill(_ signal: Int32 = SIGKILL) {
    guard isRunning else { return }
    #if canImport(Glibc)
      _ = Glibc.kill(-child.pid, signal)
    #else
      _ = Darwin.kill(-child.pid, signal)
    #endif
  }

  /// Reads its standard output and error to their ends (at once, so that neither fills its
  /// pipe while the other is read), then waits for it; on a thread of its own.
  package func collect() async -> (
    termination: ChildProcess.Termination, output: Data, errors: Data
  ) {
    await onOwnThread { self.collectBlocking() }
  }

  /// ``collect()`` holding the calling thread: for set-up and tear-down that cannot suspend.
  package func collectBlocking() -> (
    termination: ChildProcess.Termination, output: Data, errors: Data
  ) {
    let errors = Mutex(Data())
    let done = DispatchSemaphore(value: 0)
    let errorEnd = child.errors
    if errorEnd >= 0 {
      Thread {
        let data = FileHandle(fileDescriptor: errorEnd, closeOnDealloc: false)
          .readDataToEndOfFile()
        errors.withLock { $0 = data }
        done.signal()
      }.start()
    }
    let output =
      child.output >= 0
      ? FileHandle(fileDescriptor: child.output, closeOnDealloc: false).readDataToEndOfFile()
      : Data()
    if errorEnd >= 0 { done.wait() }
    return (waitBlocking(), output, errors.withLock { $0 })
  }
}

/// Why a test could not start a program.
package enum SpawnError: Error, CustomStringConvertible {
  case notStarted(program: String, reason: String)
  case failed(program: String, termination: ChildProcess.Termination)

  package var description: String {
    switch self {
    case .notStarted(let program, let reason): "could not start \(program): \(reason)"
    case .failed(let program, let termination):
      termination.signalled
        ? "\(program) was ended by signal \(termination.status)"
        : "\(program) exited with \(termination.status)"
    }
  }
}
