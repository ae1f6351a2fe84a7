import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs the user's hook commands (`"hooks"` in `config.json`, `news sync --exec`) through
/// `/bin/sh -c`: each with its input on standard input and its variables in an environment
/// of allowed variables only (``ChildEnvironment/forHooks(_:passing:)``), at most ``maximumConcurrent`` at once, each within
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

  /// Creates a runner; its hooks get of `environment` what ``ChildEnvironment/forHooks(_:passing:)``
  /// lets through, and the variables `passing` names.
  public init(environment: [String: String], deadline: Deadline, passing: [String] = []) {
    self.environment = ChildEnvironment.forHooks(environment, passing: passing)
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

  /// One run: `nil` when the command exited 0. The hook runs in a process group of its own
  /// with only standard input, output and error open (``ChildProcess``); its shell's end is
  /// awaited, never its descendants', and its group is killed when the shell ends or its time
  /// is up, so nothing it started outlives it.
  private func runOnce(_ command: String, _ run: Run) async -> String? {
    let child: ChildProcess
    do {
      child = try ChildProcess.spawn(
        shell: command, environment: environment.merging(run.variables) { $1 })
    } catch {
      return "\(run.label) could not start: \(error.reason)"
    }
    // A hook that does not read its input must not hold the writer, nor kill it: written on a
    // thread of its own with SIGPIPE blocked there (a write to a hook that has exited fails with
    // EPIPE instead, and the signal is dropped with the thread), then closed.
    let data = run.input
    let writer = child.input
    Thread.detachNewThread {
      var blocked = sigset_t()
      sigemptyset(&blocked)
      sigaddset(&blocked, SIGPIPE)
      pthread_sigmask(SIG_BLOCK, &blocked, nil)
      data.withUnsafeBytes { bytes in
        _ = FileDescriptor.writeAll(writer, bytes)
      }
      close(writer)
    }
    let ended = Task { await child.exit() }
    defer { child.killGroup() }
    let termination: ChildProcess.Termination
    do {
      termination = try await deadline.run {
        // Past its deadline the hook's group is killed (SIGKILL: a hook may ignore SIGTERM)
        // and its shell's end awaited, so that nothing is left running.
        await withTaskCancellationHandler {
          await ended.value
        } onCancel: {
          child.killGroup()
        }
      }
    } catch {
      _ = await ended.value
      return "\(run.label) took longer than \(deadline.limit.secondsText) s "
        + "(\(deadline.variable)) and was stopped"
    }
    guard !termination.signalled, termination.status == 0 else {
      return
        "\(run.label) failed (\(termination.signalled ? "signal" : "exit") \(termination.status))"
    }
    return nil
  }
}
