import Foundation
import NewsCore
import Synchronization
import TestSupport
import Testing

#if os(Linux)
  /// A process that waits on a slow server sleeps: the audit measured 6.18 s of CPU in 6.13 s of
  /// waiting before the client was replaced (Foundation's URLSession spins on Linux).
  @Suite("the news binary waiting on a server that holds the request")
  struct WaitingCPUTests {
    /// The process's CPU time so far (user and system, all threads), from /proc.
    static func cpuSeconds(of pid: Int32) -> Double? {
      guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return nil }
      // After the command name: state is field 3; utime and stime are fields 14 and 15.
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12])
      else { return nil }
      return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    static func seconds(_ duration: Duration) -> Double {
      Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    @Test(
      "CPU time while a request is held stays under 10% of the wait",
      arguments: [
        (["headlines", "--json"], "/v2/top-headlines"),
        (["feed", "--json"], "/feed/c.json"),
      ])
    func sleepsWhileWaiting(arguments: [String], held: String) async throws {
      let server = try LoopbackServer()
      server.route("/v2/top-headlines", .fixture("top-headlines-us-2022-02-17.json"))
      for name in ["a", "b", "c"] {
        server.route("/feed/\(name).json", .fixture("source_\(name).readme-sample.json"))
      }
      let started = DispatchSemaphore(value: 0)
      let child = Mutex<Int32>(0)
      let measured = Mutex<(cpu: Double, wall: Double)?>(nil)
      let answer: LoopbackServer.Response =
        held == "/feed/c.json"
        ? .fixture("source_c.readme-sample.json") : .fixture("top-headlines-us-2022-02-17.json")
      server.route(held) { _ in
        // The pid is known once `run()` returned; a child that never asks leaves this unmeasured.
        guard started.wait(timeout: .now() + 60) == .success else { return answer }
        let pid = child.withLock { $0 }
        let clock = ContinuousClock()
        // The wait being measured: the child has sent its request and has nothing left to do,
        // but it may still be finishing the other sources' answers (slowly, under a sanitizer).
        // So the quietest of up to eight quarter-second windows is kept: a process that spins
        // on its wait spends every window's CPU, one that sleeps has a window with next to none.
        for _ in 0..<8 {
          let before = (Self.cpuSeconds(of: pid), clock.now)
          Thread.sleep(forTimeInterval: 0.25)
          let after = (Self.cpuSeconds(of: pid), clock.now)
          guard let cpu0 = before.0, let cpu1 = after.0 else { break }
          let window = (cpu: cpu1 - cpu0, wall: Self.seconds(after.1 - before.1))
          measured.withLock { quietest in
            if quietest.map({ window.cpu / window.wall < $0.cpu / $0.wall }) ?? true {
              quietest = window
            }
          }
          if window.cpu <= 0.1 * window.wall { break }
        }
        return answer
      }
      let home = TemporaryDirectory()
      let process = try Spawned(
        BinaryTests.binary, arguments: arguments,
        environment: BinaryTests().environment(server, home: home)
          .merging(SanitizerOptions.inherited) { $1 },
        directory: home.url)
      child.withLock { $0 = process.pid }
      started.signal()
      #expect(await process.wait() == ChildProcess.Termination(waitStatus: 0))
      let sample = try #require(measured.withLock { $0 }, "the held request was never measured")
      #expect(sample.cpu <= 0.1 * sample.wall, "\(sample.cpu) s of CPU in \(sample.wall) s")
    }
  }
#endif
