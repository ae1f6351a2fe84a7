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
  /// `batchLimit` is how long one batch may go on starting runs (twice the deadline's limit
  /// unless given).
  public init(
    environment: [String: String], deadline: Deadline, passing: [String] = [],
    batchLimit: Duration? = nil
  ) {
    self.environment = ChildEnvironment.forHooks(environment, passing: passing)
    self.deadline = deadline
    self.batchLimit = batchLimit ?? deadline.limit * 2
  }

  /// What the runs of one batch came to.
  public struct Outcome: Sendable, Equatable {
    /// A warning for each run that failed, timed out or could not start, in the order of the
    /// runs, then one saying how many were not started (``notRun``).
    public var warnings: [String] = []
    /// The runs not started because the batch's time (``batchLimit``) was spent, by index.
    public var notRun: [Int] = []
  }

  /// How long the runs of one batch may go on starting: twice one run's limit. A hook that
  /// hangs costs that batch twice `NEWS_HOOK_TIMEOUT` (and the runs under way their own
  /// limit), not a limit for each of a thousand new items.
  public let batchLimit: Duration
  /// Told when a batch's time is spent and no run starts any more (tests wait on it rather
  /// than on the clock).
  var onBatchClosed: (@Sendable () -> Void)?

  /// Runs `command` once for each of `runs`, at most four at once; returns a warning for each
  /// run that failed, timed out or could not start, in the order of `runs`. Once the batch has
  /// taken ``batchLimit`` no run is started any more: those are said in a warning.
  public func run(_ command: String, _ runs: [Run]) async -> [String] {
    await runBatch(command, runs).warnings
  }

  /// ``run(_:_:)``, saying which runs were not started.
  public func runBatch(_ command: String, _ runs: [Run]) async -> Outcome {
    enum Event: Sendable {
      case finished(Int, String?)
      case timeSpent
    }
    let sleep = deadline.sleep
    let limit = batchLimit
    return await withTaskGroup(of: Event.self) { group in
      var next = 0
      var running = 0
      var closed = false
      var warnings = [String?](repeating: nil, count: runs.count)
      func start() {
        guard !closed, next < runs.count else { return }
        let index = next
        next += 1
        running += 1
        group.addTask { .finished(index, await runOnce(command, runs[index])) }
      }
      // Only a batch that waits for a place can run past its time.
      if runs.count > Self.maximumConcurrent {
        group.addTask {
          do {
            try await sleep(limit)
            return .timeSpent
          } catch {
            return .finished(-1, nil)
          }
        }
      }
      for _ in 0..<Self.maximumConcurrent { start() }
      while running > 0, let event = await group.next() {
        switch event {
        case .finished(let index, let warning):
          guard index >= 0 else { continue }
          warnings[index] = warning
          running -= 1
          start()
        case .timeSpent:
          closed = true
          onBatchClosed?()
        }
      }
      group.cancelAll()
      var outcome = Outcome(warnings: warnings.compactMap { $0 }, notRun: Array(next..<runs.count))
      if !outcome.notRun.isEmpty {
        let count = outcome.notRun.count
        outcome.warnings.append(
          "\(count) hook run\(count == 1 ? "" : "s") not started: the hooks of this run took "
            + "\(limit.secondsText) s in all (twice \(deadline.variable) at most); "
            + "\(count == 1 ? "it runs" : "they run") at the next sync")
      }
      return outcome
    }
  }

  /// The most bytes of one `NEWS_ITEM_*` variable: a longer value is cut at a character (the
  /// whole item is on standard input), so that no feed can keep a hook from starting with an
  /// argument list too long.
  public static let maximumVariableBytes = 4_096

  /// The `NEWS_ITEM_*` variables of an article (a new item's, or one sent to a command): its
  /// id, title, link and the feed or provider it came from (`NEWS_ITEM_SOURCE`), each at most
  /// ``maximumVariableBytes``.
  public static func itemVariables(_ article: Article) -> [String: String] {
    [
      "NEWS_ITEM_ID": capped(article.id), "NEWS_ITEM_TITLE": capped(article.title),
      "NEWS_ITEM_URL": capped(article.url ?? ""), "NEWS_ITEM_SOURCE": capped(article.provider),
    ]
  }

  /// `value` cut to at most ``maximumVariableBytes`` of UTF-8, at a character boundary.
  static func capped(_ value: String) -> String {
    guard value.utf8.count > maximumVariableBytes else { return value }
    var bytes = 0
    var end = value.startIndex
    for index in value.indices {
      let next = value.index(after: index)
      let length = value.utf8.distance(from: index, to: next)
      guard bytes + length <= maximumVariableBytes else { break }
      bytes += length
      end = next
    }
    return String(value[..<end])
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
    child.write(run.input)
    // Whatever the shell left running in its group goes with it.
    defer { child.killGroup() }
    let termination: ChildProcess.Termination
    do {
      termination = try await child.exit(within: deadline)
    } catch {
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
