import Foundation
import Synchronization

/// The time the regular expressions of one run may take, all of them together: a query's
/// `/…/`, or every ignore rule's. Each expression is compiled once, is stopped on an article
/// past ``perMatch`` (runaway backtracking: `(a+)+$`), and every expression stops once the run
/// has spent ``total``; an expression stopped once stays stopped for the run, matching nothing,
/// and the warning names it. A run is a command's list or search, or one filter (or the
/// highlights) of a browse session, whose matchers share it however often they are built.
public final class PatternBudget: Sendable {
  /// The longest one expression may take on one article.
  public let perMatch: Duration
  /// The longest all expressions may take together over the run.
  public let total: Duration
  /// Now, on a monotonic clock (injected by tests).
  let clock: @Sendable () -> Duration

  private struct State {
    var spent: Duration = .zero
    var compiled: [String: NSRegularExpression] = [:]
    var invalid: Set<String> = []
    /// The expressions stopped, in order, with why.
    var stopped: [(pattern: String, whole: Bool)] = []
    /// What each expression took, for naming the costliest when the run's time is spent.
    var taken: [String: Duration] = [:]
  }
  private let state = Mutex(State())

  /// How many of an expression's progress steps pass between two readings of the clock.
  static let stepsPerReading = 8

  /// The default run: 100 ms an article, 2 s in all.
  public static let defaultPerMatch: Duration = .milliseconds(100)
  public static let defaultTotal: Duration = .seconds(2)

  public init(
    perMatch: Duration = PatternBudget.defaultPerMatch,
    total: Duration = PatternBudget.defaultTotal,
    clock: @escaping @Sendable () -> Duration = PatternBudget.monotonic
  ) {
    self.perMatch = perMatch
    self.total = total
    self.clock = clock
  }

  /// The time since an arbitrary start, on the monotonic clock.
  @Sendable public static func monotonic() -> Duration {
    ContinuousClock.now - start
  }
  private static let start = ContinuousClock.now

  /// `pattern` compiled with `options` (once a run); `nil` when it is no expression or was
  /// stopped.
  func expression(_ pattern: String, options: NSRegularExpression.Options)
    -> NSRegularExpression?
  {
    state.withLock { state in
      if let done = state.compiled[pattern] { return done }
      if state.invalid.contains(pattern)
        || state.stopped.contains(where: { $0.whole || $0.pattern == pattern })
      {
        return nil
      }
      guard let made = try? NSRegularExpression(pattern: pattern, options: options) else {
        state.invalid.insert(pattern)
        return nil
      }
      state.compiled[pattern] = made
      return made
    }
  }

  /// Whether `pattern` (compiled with `options`) matches in `text`; `false` when it is stopped,
  /// now or before.
  func matches(_ pattern: String, options: NSRegularExpression.Options, in text: String) -> Bool {
    guard let expression = expression(pattern, options: options) else { return false }
    let left = state.withLock { min(perMatch, total - $0.spent) }
    guard left > .zero else {
      stop(pattern, whole: true)
      return false
    }
    let start = clock()
    var found = false
    var slow = false
    var steps = 0
    expression.enumerateMatches(
      in: text, options: [.reportProgress], range: NSRange(text.startIndex..., in: text)
    ) { match, _, stop in
      steps += 1
      if match != nil {
        found = true
        stop.pointee = true
      } else if steps % Self.stepsPerReading == 0, self.clock() - start > left {
        // The clock every few steps: read at every one, it was a quarter of a search by
        // a regular expression (a step is short; a runaway expression takes millions).
        slow = true
        stop.pointee = true
      }
    }
    let took = clock() - start
    let spentAll = state.withLock { state in
      state.spent += took
      state.taken[pattern, default: .zero] += took
      return state.spent >= total
    }
    if found { return true }
    if slow { stop(pattern, whole: spentAll) }
    return false
  }

  /// Stops `pattern` (or, `whole`, every expression: the run's time is spent).
  private func stop(_ pattern: String, whole: Bool) {
    state.withLock { state in
      if whole {
        let costliest =
          state.taken.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key
          ?? pattern
        for name in Array(state.compiled.keys) { state.compiled[name] = nil }
        if !state.stopped.contains(where: \.whole) {
          state.stopped.append((costliest, true))
        }
      } else {
        state.compiled[pattern] = nil
        state.stopped.append((pattern, false))
      }
    }
  }

  /// Whether every expression is stopped (the run's time is spent).
  public var isSpent: Bool { state.withLock { $0.stopped.contains(where: \.whole) } }

  /// What was stopped: an expression slow on one article, or the run's whole time spent, named
  /// by its costliest expression; `name` words an expression (`the query's /(a+)+$/`).
  public func warnings(naming name: (String) -> String) -> [String] {
    let stopped = state.withLock { $0.stopped }
    let advice = "(a pattern that backtracks without end; simplify it)"
    return stopped.map { stopped in
      stopped.whole
        ? "regular expressions took their \(total.secondsText) s for this run, \(name(stopped.pattern)) "
          + "the most, and matched nothing from then on \(advice)"
        : "\(name(stopped.pattern)) took over \(perMatch.secondsText) s on one article and matched "
          + "nothing from then on \(advice)"
    }
  }

  /// The expressions stopped so far, in order.
  public var stoppedPatterns: [String] { state.withLock { $0.stopped.map(\.pattern) } }
}
