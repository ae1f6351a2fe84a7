import Foundation

/// The syncs a reader's reloads make of its accounts: one at a time (each holds the sync lock),
/// and one for every row of an account reloaded together (`R`: its feeds share the sync that
/// brings all of them).
actor AccountReloads {
  /// What one account's sync gave: its report line and when it finished, or why it could not
  /// run (another sync holds the lock).
  typealias Outcome = Result<(report: SyncSourceReport, finishedAt: Date), any Error>

  private var running: [String: Task<Outcome, Never>] = [:]
  private var last: Task<Void, Never>?
  /// How many syncs were asked, and how many of those asks shared one asked or running
  /// already (for tests).
  private(set) var asked = 0
  private(set) var shared = 0
  /// When each account's last sync here ended, of those that succeeded: newer than what the
  /// reader's channels were made with.
  private var finished: [String: Date] = [:]

  /// When account `name`'s last successful sync of these reloads ended, if one did.
  func finishedAt(_ name: String) -> Date? { finished[name] }

  /// Syncs account `name` with `run`, after the syncs asked before it; a sync of `name` asked
  /// or running already is shared, not made again.
  func sync(_ name: String, with run: @escaping @Sendable (String) async -> Outcome) async
    -> Outcome
  {
    asked += 1
    if let task = running[name] {
      shared += 1
      return await task.value
    }
    let previous = last
    let task = Task {
      await previous?.value
      return await run(name)
    }
    running[name] = task
    last = Task { _ = await task.value }
    let outcome = await task.value
    running[name] = nil
    if case .success(let done) = outcome, done.report.status != .failed {
      finished[name] = done.finishedAt
    }
    return outcome
  }
}
