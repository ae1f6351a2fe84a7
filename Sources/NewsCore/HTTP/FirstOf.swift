/// The value of `work`, or `nil` when `sleep(limit)` ends first: then `work` is cancelled (and
/// awaited, as a task group awaits its children). The one "work against a limit" of the program:
/// deadlines, the transport's timeout, the counts of `show`, the analytics flush.
///
/// - Throws: what `work` throws, or what `sleep` throws (a cancelled wait), whichever ends first.
func firstOf<T: Sendable>(
  _ work: @escaping @Sendable () async throws -> T, orAfter limit: Duration,
  sleep: @escaping Sleeper
) async throws -> T? {
  try await withThrowingTaskGroup(of: T?.self) { group in
    group.addTask { try await work() }
    group.addTask {
      try await sleep(limit)
      return nil
    }
    defer { group.cancelAll() }
    return try await group.next()!
  }
}
