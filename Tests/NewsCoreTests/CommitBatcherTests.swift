import Foundation
import Testing

@testable import NewsCore

/// A commit waits for the requests a run announced and has not submitted yet, up to a number
/// and a time: each step is seen as an event, never timed.
@Suite("Commits gather the answers still to come")
struct CommitBatcherTests {
  /// A batcher whose commits and waits are events on one stream, in the order they happen.
  static func batcher(gathering: Int, timeout: TimeInterval) -> (
    CommitBatcher<String, Int>, AsyncStream<String>
  ) {
    let (events, recording) = AsyncStream<String>.makeStream()
    let batcher = CommitBatcher<String, Int>(
      maximumBatch: 64, gathering: gathering, gatherTimeout: timeout
    ) { batch in
      recording.yield("commit " + batch.sorted().joined(separator: " "))
      return batch.count
    }
    batcher.observeGathering { recording.yield("gathering \($0)") }
    return (batcher, events)
  }

  /// Starts an announced request that submits `name` once `gate` opens, or ends without
  /// submitting when `submits` is false; returns once it is announced.
  static func held(
    _ name: String, by batcher: CommitBatcher<String, Int>, submits: Bool = true
  ) async -> (gate: AsyncStream<Void>.Continuation, task: Task<Int, Never>) {
    let (gate, opening) = AsyncStream<Void>.makeStream()
    let (entered, entering) = AsyncStream<Void>.makeStream()
    let task = Task {
      await batcher.announced {
        entering.yield()
        for await _ in gate { break }
        return submits ? await batcher.submit(name) : 0
      }
    }
    for await _ in entered { break }
    return (opening, task)
  }

  @Test("a commit waits for the announced answers, then takes them together")
  func gathers() async {
    let (batcher, events) = Self.batcher(gathering: 3, timeout: 3_600)
    var iterator = events.makeAsyncIterator()
    let b = await Self.held("b", by: batcher)
    let c = await Self.held("c", by: batcher)
    let a = Task { await batcher.announced { await batcher.submit("a") } }
    // Without the wait, the first event would be a commit of "a" alone.
    #expect(await iterator.next() == "gathering 1")
    b.gate.yield()
    c.gate.yield()
    #expect(await iterator.next() == "commit a b c")
    #expect(await a.value == 3)
    #expect(await b.task.value == 3)
    #expect(await c.task.value == 3)
  }

  @Test("one that ends without submitting is not waited for")
  func withdrawn() async {
    let (batcher, events) = Self.batcher(gathering: 3, timeout: 3_600)
    var iterator = events.makeAsyncIterator()
    let b = await Self.held("b", by: batcher, submits: false)
    let a = Task { await batcher.announced { await batcher.submit("a") } }
    #expect(await iterator.next() == "gathering 1")
    // The hour's limit is not reached: its end is what lets the commit go.
    b.gate.yield()
    #expect(await iterator.next() == "commit a")
    #expect(await a.value == 1)
    #expect(await b.task.value == 0)
  }

  @Test("past the time limit, what waits is committed without the rest")
  func timeout() async {
    let (batcher, events) = Self.batcher(gathering: 3, timeout: 0)
    var iterator = events.makeAsyncIterator()
    let b = await Self.held("b", by: batcher)
    let a = Task { await batcher.announced { await batcher.submit("a") } }
    #expect(await iterator.next() == "gathering 1")
    #expect(await iterator.next() == "commit a")
    #expect(await a.value == 1)
    b.gate.yield()
    #expect(await iterator.next() == "commit b")
    #expect(await b.task.value == 1)
  }

  @Test("nothing announced: a request is committed at once")
  func unannounced() async {
    let (batcher, events) = Self.batcher(gathering: 3, timeout: 3_600)
    var iterator = events.makeAsyncIterator()
    #expect(await batcher.submit("alone") == 1)
    #expect(await iterator.next() == "commit alone")
  }
}
