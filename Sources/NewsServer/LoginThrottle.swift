import Foundation
import Synchronization

/// Slows down guessing: after ``allowedFailures`` failed logins from one address, its logins are
/// answered at once with 429 for a while (1 s, doubling with each further failure, up to 15
/// minutes) without trying the password; other addresses sign in as usual. A success forgets
/// the address's failures.
final class LoginThrottle: Sendable {
  /// Failures allowed before an address waits.
  static let allowedFailures = 5
  /// The longest wait.
  static let longestWait = 900.0

  private struct Record {
    var failures = 0
    var blockedUntil = 0.0
  }

  private let records = Mutex<[String: Record]>([:])
  /// Seconds on a monotonic clock.
  private let clock: @Sendable () -> Double

  init(clock: @escaping @Sendable () -> Double) {
    self.clock = clock
  }

  /// How many seconds `address` must still wait before its password is tried again; `nil`
  /// when it may try now.
  func wait(for address: String) -> Int? {
    let now = clock()
    guard let record = records.withLock({ $0[address] }), record.blockedUntil > now else {
      return nil
    }
    return Int((record.blockedUntil - now).rounded(.up))
  }

  /// Notes a failed login from `address`.
  func failed(_ address: String) {
    let now = clock()
    records.withLock { records in
      var record = records[address] ?? Record()
      record.failures += 1
      let over = record.failures - Self.allowedFailures
      if over >= 0 {
        record.blockedUntil = now + min(Self.longestWait, pow(2, Double(min(over, 20))))
      }
      records[address] = record
      // Bounded: a flood from many addresses forgets the oldest unblocked ones first.
      if records.count > 10_000 {
        for (key, value) in records where value.blockedUntil <= now { records[key] = nil }
      }
    }
  }

  /// Notes a successful login from `address`.
  func succeeded(_ address: String) {
    records.withLock { $0[address] = nil }
  }
}
