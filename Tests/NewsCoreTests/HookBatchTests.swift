import Foundation
import TestSupport
import Testing

@testable import NewsCore

/// The hooks of one run share one time (#53.2.7): a hook that hangs for every one of a thousand
/// new items cannot hold a sync for hours; the runs not started are owed to the next sync.
@Suite("Hook batches: one time for all the runs of a sync")
struct HookBatchTests {
  @Test(
    "once the batch's time is spent no run starts; those not started are said and counted",
    .timeLimit(.minutes(10)))
  func batchTimeSpent() async throws {
    let clock = TestClock()
    var runner = HookRunner(
      environment: ["PATH": "/usr/bin:/bin"],
      deadline: Deadline(
        .seconds(30), variable: "NEWS_HOOK_TIMEOUT", sleep: { try await clock.sleep(for: $0) }),
      batchLimit: .seconds(10))
    let runs = (0..<10).map {
      HookRunner.Run(label: "newItem hook for \($0)", input: Data(), variables: [:])
    }
    let (closed, closing) = AsyncStream<Void>.makeStream()
    runner.onBatchClosed = { closing.yield() }
    let batch = Task { [runner] in await runner.runBatch("exec sleep 600", runs) }
    // Four runs under way, each waiting for its limit, and the batch waiting for its own.
    await clock.sleepers(5)
    clock.advance(by: .seconds(10))
    // The batch has closed before the runs under way reach their limit.
    var iterator = closed.makeAsyncIterator()
    await iterator.next()
    clock.advance(by: .seconds(20))
    let outcome = await batch.value
    #expect(outcome.notRun == Array(4..<10))
    #expect(outcome.warnings.count == 5, "\(outcome.warnings)")
    #expect(outcome.warnings.prefix(4).allSatisfy { $0.contains("took longer than 30 s") })
    #expect(
      outcome.warnings.last
        == "6 hook runs not started: the hooks of this run took 10 s in all (twice "
        + "NEWS_HOOK_TIMEOUT at most); they run at the next sync")
  }

  @Test("a batch that needs no place to wait starts every run and waits for no clock")
  func smallBatch() async {
    let runner = HookRunner(
      environment: [:],
      // A clock never advanced: no run's limit passes.
      deadline: Deadline(
        .seconds(30), variable: "NEWS_HOOK_TIMEOUT",
        sleep: { [clock = TestClock()] in try await clock.sleep(for: $0) }),
      batchLimit: .zero)
    let runs = (0..<3).map { HookRunner.Run(label: "run \($0)", input: Data(), variables: [:]) }
    let outcome = await runner.runBatch("exit 0", runs)
    #expect(outcome == HookRunner.Outcome())
  }

  @Test(
    "each NEWS_ITEM_* variable is at most 4 KiB, cut at a character",
    arguments: [
      ("short", 5), (String(repeating: "é", count: 3_000), 4_096),
      (String(repeating: "a", count: 4_095) + "👍🏽", 4_095),
    ])
  func cappedVariables(value: String, bytes: Int) {
    let variables = HookRunner.itemVariables(Article(id: "x", provider: "s", title: value))
    let title = variables["NEWS_ITEM_TITLE"] ?? ""
    #expect(title.utf8.count == bytes)
    #expect(value.hasPrefix(title))
    #expect(variables["NEWS_ITEM_URL"] == "" && variables["NEWS_ITEM_SOURCE"] == "s")
  }

  @Test("runs put off are owed, oldest first, and claimed again by the next run")
  func owedRuns() throws {
    let directory = TemporaryDirectory()
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let store = ArticleStore.testing(in: directory.url) { now }
    #expect(try store.claimHookRuns(["a", "b", "c"], at: now) == ["a", "b", "c"])
    try store.putOffHookRuns(["c"], at: now)
    try store.putOffHookRuns(["b"], at: now.addingTimeInterval(60))
    #expect(try store.owedHookRuns() == ["c", "b"])
    #expect(try store.claimHookRuns(["a", "b", "c", "d"], at: now) == ["b", "c", "d"])
    #expect(try store.owedHookRuns().isEmpty)
    // Owed runs not among the new ids come first, oldest first, claimed in the same write.
    try store.putOffHookRuns(["a"], at: now)
    try store.putOffHookRuns(["d"], at: now.addingTimeInterval(1))
    #expect(try store.claimHookRuns(["e"], at: now) == ["a", "d", "e"])
    #expect(try store.owedHookRuns().isEmpty)
    #expect(try store.claimHookRuns([], at: now).isEmpty)
  }
}
