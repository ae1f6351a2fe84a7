import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs the user's hook commands (`"hooks"` in `config.json`, `news sync --exec`) through
/// `/bin/sh -c`: each with its input on standard input and its variables in an environment
/// without any secret (``ChildEnvironment``), at most ``maximumConcurrent`` at once, each within
/// its deadline (`NEWS_HOOK_TIMEOUT`). A hook that fails, hangs or cannot start is a warning
/// naming it, never the sync's failure. Its own output goes nowhere: a cron job's mail holds
/// what `news` says, not what a hook printed.
public struct HookRunner: Sendable {
  /// One run of a hook: what it is given.
  public struct Run: Sendable {
    /// What it is called in a warning (`newItem hook for site.example-1`).
    public var label: String
    /// Its standard input.
    public var input: Data
    /// Variables added to its environment.
    public var variables: [String: String]

    /// Creates a run.
    public init(label: String, input: Data, variables: [String: String]) {
      self.label = label
      self.input = input
      self.variables = variables
    }
  }

  /// The environment the program runs in (the hooks get it without its secrets).
  let environment: [String: String]
  /// How long one run may take.
  let deadline: Deadline
  /// The most runs at once.
  static let maximumConcurrent = 4

  /// Creates a runner.
  public init(environment: [String: String], deadline: Deadline) {
    self.environment = ChildEnvironment.scrubbed(environment)
    self.deadline = deadline
  }

  /// Runs `command` once for each of `runs`, at most four at once; returns a warning for each
  /// run that failed, timed out or could not start, in the order of `runs`.
  public func run(_ command: String, _ runs: [Run]) async -> [String] {
    await withTaskGroup(of: (Int, String?).self) { group in
      var next = 0
      var warnings = [String?](repeating: nil, count: runs.count)
      func start() {
        guard next < runs.count else { return }
        let index = next
        next += 1
        group.addTask { (index, await runOnce(command, runs[index])) }
      }
      for _ in 0..<Self.maximumConcurrent { start() }
      for await (index, warning) in group {
        warnings[index] = warning
        start()
      }
      return warnings.compactMap { $0 }
    }
  }

  /// One run: `nil` when the command exited 0.
  private func runOnce(_ command: String, _ run: Run) async -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    process.environment = environment.merging(run.variables) { $1 }
    let input = Pipe()
    process.standardInput = input
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let exited = ExitSignal()
    process.terminationHandler = { _ in exited.signal() }
    do {
      try process.run()
    } catch {
      return "\(run.label) could not start: \(error.localizedDescription)"
    }
    // A hook that does not read its input must not hold the writer, nor kill it: written on a
    // thread of its own with SIGPIPE blocked there (a write to a hook that has exited fails with
    // EPIPE instead, and the signal is dropped with the thread), then closed.
    let data = run.input
    let writer = input.fileHandleForWriting
    Thread.detachNewThread {
      var blocked = sigset_t()
      sigemptyset(&blocked)
      sigaddset(&blocked, SIGPIPE)
      pthread_sigmask(SIG_BLOCK, &blocked, nil)
      data.withUnsafeBytes { bytes in
        _ = FileDescriptor.writeAll(writer.fileDescriptor, bytes)
      }
      try? writer.close()
    }
    let pid = process.processIdentifier
    do {
      try await deadline.run {
        // Past its deadline the hook is stopped (SIGKILL: a hook may ignore SIGTERM) and its end
        // awaited, so that nothing is left running.
        await withTaskCancellationHandler {
          await exited.wait()
        } onCancel: {
          kill(pid, SIGKILL)
        }
      }
    } catch {
      return "\(run.label) took longer than \(deadline.limit.secondsText) s "
        + "(\(deadline.variable)) and was stopped"
    }
    let status = process.terminationStatus
    guard process.terminationReason == .exit, status == 0 else {
      return
        "\(run.label) failed (\(process.terminationReason == .exit ? "exit \(status)" : "signal \(status)"))"
    }
    return nil
  }
}

/// The end of a process, awaited once.
private final class ExitSignal: @unchecked Sendable {
  // @unchecked: every field is read and written under `lock`.
  private let lock = NSLock()
  private var exited = false
  private var waiter: CheckedContinuation<Void, Never>?

  func signal() {
    lock.lock()
    exited = true
    let waiting = waiter
    waiter = nil
    lock.unlock()
    waiting?.resume()
  }

  func wait() async {
    await withCheckedContinuation { continuation in
      lock.lock()
      if exited {
        lock.unlock()
        continuation.resume()
      } else {
        waiter = continuation
        lock.unlock()
      }
    }
  }
}
