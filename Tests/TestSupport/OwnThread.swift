import Foundation

/// Runs `work`, which blocks (waiting for a child process, reading a terminal), on a thread of
/// its own and waits for it without holding a thread: the tasks of every test running in
/// parallel share a pool as wide as the machine has cores (two in CI), and a test blocking one of
/// them for the seconds a child takes stalls all the others, until their time limits pass.
package func onOwnThread<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
  await withCheckedContinuation { continuation in
    Thread { continuation.resume(returning: work()) }.start()
  }
}

/// ``onOwnThread(_:)`` for `work` that throws.
package func onOwnThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value)
  async throws -> Value
{
  try await onOwnThread { Result { try work() } }.get()
}
