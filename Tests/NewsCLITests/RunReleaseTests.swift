import Foundation
import NewsCore
import TestSupport
import Testing

/// A run lets go of everything it was given once it returns: its context, services and stores
/// (a run in a process that goes on, as the tests' are). The probe is an object that only the
/// run's limits hold.
@Suite("a run lets go of its context when it returns")
struct RunReleaseTests {
  /// An object no one but the limits of a run holds.
  final class Probe: Sendable {}

  /// Limits that hold `probe`: the one of `passing` ends once the server has the request for
  /// `path`; every other never ends (unless cancelled).
  static func limits(holding probe: Probe, passing: Duration? = nil, server: LoopbackServer? = nil)
    -> Sleeper
  {
    { limit in
      withExtendedLifetime(probe) {}
      guard let server, limit == passing else { return try await TestClock().sleep(for: limit) }
      // Bounded (20 s, for a broken run): the test fails below rather than hang.
      for _ in 0..<20_000 where !server.requests.contains(where: { $0.path == "/feed/a.json" }) {
        try await Task.sleep(for: .milliseconds(1))
      }
    }
  }

  /// Waits (20 s at most, for a broken run) until `probe` is gone.
  static func released(_ probe: () -> Probe?) async throws -> Bool {
    for _ in 0..<20_000 where probe() != nil { try await Task.sleep(for: .milliseconds(1)) }
    return probe() == nil
  }

  @Test(
    "commands that open the stores and write",
    arguments: [["--version"], ["sources"], ["feed", "--offline"], ["feed"], ["read", "--all"]])
  func command(arguments: [String]) async throws {
    let harness = try Harness()
    harness.routeDemoSources()
    weak var weakProbe: Probe?
    do {
      let probe = Probe()
      weakProbe = probe
      _ = await harness.run(arguments, deadline: Self.limits(holding: probe))
    }
    #expect(try await Self.released { weakProbe })
  }

  @Test("a source left hanging at its deadline: everything goes once the server lets it go")
  func hanging() async throws {
    let harness = try Harness()
    let hold = harness.server.hold
    harness.server.route("/feed/a.json") { _ in
      hold()
      return .json(#"{"stories": []}"#)
    }
    weak var weakProbe: Probe?
    do {
      let probe = Probe()
      weakProbe = probe
      let result = await harness.run(
        ["feed", "--source", "a"], environment: ["NEWS_SOURCE_DEADLINE": "12"],
        deadline: Self.limits(holding: probe, passing: .seconds(12), server: harness.server))
      #expect(result.code == .unavailable)
    }
    harness.server.stop()
    #expect(try await Self.released { weakProbe })
  }
}
