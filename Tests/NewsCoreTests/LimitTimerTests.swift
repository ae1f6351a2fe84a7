import Foundation
import Synchronization
import TestSupport
import Testing

@testable import NewsCore

/// The process's one timer for limits, and the race of work against a limit that deadlines run.
/// The waits here are a millisecond, or ``Signals/never`` and cancelled: no test waits on the
/// clock.
@Suite("Limits: one timer for every wait, and work raced against it")
struct LimitTimerTests {
  @Test("a heap gives its ends back soonest first", arguments: [1, 2, 7, 64, 500])
  func heapOrder(count: Int) {
    let start = ContinuousClock().now
    var generator = SystemRandomNumberGenerator()
    var heap = MinHeap<ContinuousClock.Instant, UInt64>()
    var offsets: [Int] = []
    for id in 0..<count {
      let offset = Int.random(in: 0..<1_000, using: &generator)
      offsets.append(offset)
      heap.push(start.advanced(by: .milliseconds(offset)), UInt64(id))
    }
    var popped: [Int] = []
    while let first = heap.first {
      popped.append(offsets[Int(first.value)])
      heap.pop()
    }
    #expect(popped == offsets.sorted())
    #expect(heap.count == 0)
  }

  @Test("a short wait ends while a longer one, entered before it, still waits")
  func soonerWaitEndsFirst() async throws {
    let timer = LimitTimer()
    let long = Task { try await timer.sleep(for: Signals.never) }
    try await timer.sleep(for: .milliseconds(1))
    long.cancel()
    await #expect(throws: CancellationError.self) { try await long.value }
  }

  @Test("many waits of one timer all end, whatever order they were entered in")
  func manyWaits() async throws {
    let timer = LimitTimer()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for n in 0..<200 {
        group.addTask { try await timer.sleep(for: .microseconds((200 - n) * 10)) }
      }
      try await group.waitForAll()
    }
    let ended = Recorder<Int>()
    let waits = Task {
      try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<50 {
          group.addTask {
            try await timer.sleep(for: Signals.never)
            ended.record(1)
          }
        }
        try await group.waitForAll()
      }
    }
    waits.cancel()
    await #expect(throws: CancellationError.self) { try await waits.value }
    #expect(ended.all.isEmpty)
  }

  @Test("a wait whose task is cancelled before it starts ends at once")
  func cancelledBeforeStart() async {
    let timer = LimitTimer()
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await timer.sleep(for: Signals.never)
    }
    await #expect(throws: CancellationError.self) { try await task.value }
  }

  @Test("an action scheduled runs on the timer once its time has passed; one cancelled is dropped")
  func scheduled() async {
    let timer = LimitTimer()
    let ran = Signals()
    let dropped = timer.schedule(after: Signals.never) { ran.record("hour") }
    #expect(timer.pendingCount == 1)
    timer.cancel(dropped)
    #expect(timer.pendingCount == 0)
    _ = timer.schedule(after: .milliseconds(1)) { ran.record("soon") }
    #expect(await ran.first(1) == ["soon"])
    #expect(timer.pendingCount == 0)
  }

  @Test("raced against the timer itself: work first, limit first, work throwing, caller cancelled")
  func racedOnTheTimer() async throws {
    let timer = LimitTimer()
    #expect(try await firstOfWithoutWaiting({ 7 }, orAfter: Signals.never, timer: timer) == 7)
    // The work's end drops the limit's wait.
    #expect(timer.pendingCount == 0)
    let work = Signals()
    let late = try await firstOfWithoutWaiting(
      work.cancelledWait("cancelled", on: timer), orAfter: .zero, timer: timer)
    #expect(late == nil)
    #expect(await work.first(1) == ["cancelled"])
    struct Broken: Error {}
    await #expect(throws: Broken.self) {
      _ = try await firstOfWithoutWaiting(
        { () async throws -> Int in throw Broken() }, orAfter: Signals.never, timer: timer)
    }
    let stopped = Signals()
    let caller = Task {
      try await firstOfWithoutWaiting(
        stopped.cancelledWait("work", on: timer), orAfter: Signals.never, timer: timer)
    }
    caller.cancel()
    await #expect(throws: CancellationError.self) { try await caller.value }
    #expect(await stopped.first(1) == ["work"])
  }

  @Test("a deadline on the process's timer passes as one on a sleeping task does")
  func liveDeadline() async throws {
    let deadline = Deadline(.milliseconds(1), variable: "NEWS_SOURCE_DEADLINE", timing: .live)
    #expect(deadline.timer != nil)
    await #expect(throws: DeadlineError(message: deadline.message)) {
      try await deadline.run { try await LimitTimer.shared.sleep(for: Signals.never) }
    }
    let hour = Deadline(Signals.never, variable: "NEWS_SOURCE_DEADLINE", timing: .live)
    #expect(try await hour.run { "in time" } == "in time")
  }

  @Test("work that ends first is the answer, and the limit's wait is cancelled")
  func workFirst() async throws {
    let waits = Signals()
    let value = try await firstOfWithoutWaiting(
      { 42 }, orAfter: Signals.never,
      sleep: { limit in
        do {
          try await LimitTimer.shared.sleep(for: limit)
          waits.record("ended")
        } catch {
          waits.record("cancelled")
          throw error
        }
      })
    #expect(value == 42)
    // The limit's wait is let go, not left waiting an hour.
    #expect(await waits.first(1) == ["cancelled"])
  }

  @Test("a limit that passes first answers nil, and the work is cancelled")
  func limitFirst() async throws {
    let work = Signals()
    let value = try await firstOfWithoutWaiting(
      work.cancelledWait("cancelled"), orAfter: .zero, sleep: { _ in })
    #expect(value == nil)
    #expect(await work.first(1) == ["cancelled"])
  }

  @Test("work that throws throws to the caller")
  func workThrows() async {
    struct Broken: Error {}
    await #expect(throws: Broken.self) {
      _ = try await firstOfWithoutWaiting(
        { () async throws -> Int in throw Broken() }, orAfter: Signals.never,
        sleep: { try await LimitTimer.shared.sleep(for: $0) })
    }
  }

  @Test("a cancelled caller gets CancellationError, and both its tasks are stopped")
  func callerCancelled() async {
    let stopped = Signals()
    let work = stopped.cancelledWait("work")
    let limit = stopped.cancelledWait("limit")
    let caller = Task {
      try await firstOfWithoutWaiting(work, orAfter: .seconds(1)) { _ in _ = try await limit() }
    }
    caller.cancel()
    await #expect(throws: CancellationError.self) { try await caller.value }
    #expect(Set(await stopped.first(2)) == ["work", "limit"])
  }
}

/// What tasks tell a test as they end, awaited in order of arrival (no clock involved).
private final class Signals: Sendable {
  private let stream: AsyncStream<String>
  private let continuation: AsyncStream<String>.Continuation

  init() {
    (stream, continuation) = AsyncStream.makeStream()
  }

  func record(_ signal: String) { continuation.yield(signal) }

  /// An hour: a wait every test cancels (or outlives), never one it waits out.
  static let never: Duration = .seconds(3_600)

  /// Work that waits on `timer` for ``never`` and tells `name` when it is cancelled.
  func cancelledWait(_ name: String, on timer: LimitTimer = .shared)
    -> @Sendable () async throws -> Int
  {
    {
      do {
        try await timer.sleep(for: Self.never)
      } catch {
        self.record(name)
        throw error
      }
      return 1
    }
  }

  /// The first `count` signals, waiting for them.
  func first(_ count: Int) async -> [String] {
    var signals: [String] = []
    for await signal in stream {
      signals.append(signal)
      if signals.count == count { break }
    }
    return signals
  }
}
