import Foundation
import NewsCore
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `news serve` as a process: a mark answered 200 outlives `kill -9`, SIGTERM stops it cleanly.
@Suite("news serve, the binary")
struct ServeBinaryTests {
  /// `news serve` running, its port read from the line it logs when it listens.
  struct Served {
    let process: Spawned
    let errors: FileHandle
    let port: Int

    static func start(environment: [String: String]) async throws -> Served {
      let process = try Spawned(
        BinaryTests.binary, arguments: ["serve", "--listen", "127.0.0.1:0"],
        environment: environment.merging(SanitizerOptions.inherited) { $1 }, errors: .pipe)
      // Blocking reads until the line saying where it listens (no sleep, no poll).
      let text = await onOwnThread {
        var text = ""
        while !text.contains("/ (Google Reader API") {
          let chunk = process.errors.availableData
          if chunk.isEmpty { break }
          text += String(decoding: chunk, as: UTF8.self)
        }
        return text
      }
      guard let port = text.firstMatch(of: /http:\/\/127\.0\.0\.1:(\d+)\//).flatMap({ Int($0.1) })
      else {
        // Never left running behind a failed test.
        process.kill(SIGKILL)
        await process.wait()
        Issue.record("news serve said no address: \(text)")
        throw CancellationError()
      }
      return Served(process: process, errors: process.errors, port: port)
    }

    /// Kills the server if it still runs: a test that fails half-way leaves no process.
    func stop() {
      process.kill(SIGKILL)
      _ = process.waitBlocking()
    }

    /// The body of a request to the server.
    func ask(_ path: String, form: String? = nil) async throws -> (Int, String) {
      var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
      if let form {
        request.httpMethod = "POST"
        request.httpBody = Data(form.utf8)
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
      }
      let (data, response) = try await URLSession.shared.data(for: request)
      return (
        (response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self)
      )
    }
  }

  @Test("a mark answered 200 survives kill -9 of the server; SIGTERM stops it with exit 0")
  func acknowledgedMarks() async throws {
    let server = try LoopbackServer()
    for name in ["a", "b", "c"] {
      server.route("/feed/\(name).json", .fixture("source_\(name).readme-sample.json"))
    }
    let home = TemporaryDirectory()
    let environment = BinaryTests().environment(server, home: home)
    let fetched = try await BinaryTests().run(["feed"], environment: environment)
    #expect(fetched.0 == 0, "\(fetched.2)")

    let served = try await Served.start(environment: environment)
    defer { served.stop() }
    let (_, ids) = try await served.ask(
      "/reader/api/0/stream/items/ids?s=user/-/state/com.google/reading-list&n=2")
    let numbers = ids.matches(of: /"id":"(\d+)"/).map { String($0.1) }
    #expect(numbers.count == 2, "\(ids)")
    let (_, token) = try await served.ask("/reader/api/0/token")
    let form =
      "i=\(numbers[0])&i=\(numbers[1])&a=user%2F-%2Fstate%2Fcom.google%2Fread&T="
      + token.trimmingCharacters(in: .newlines)
    let (status, body) = try await served.ask("/reader/api/0/edit-tag", form: form)
    #expect(status == 200 && body == "OK")
    served.process.kill(SIGKILL)
    #expect(await served.process.wait().signalled)

    let read = try await BinaryTests().run(
      ["search", "is:read", "--json"], environment: environment)
    #expect(read.0 == 0, "\(read.2)")
    #expect(read.1.contains("\"totalResults\": 2"), "\(read.1)")
    #expect(read.1.matches(of: /"read": true/).count == 2, "\(read.1)")

    let again = try await Served.start(environment: environment)
    defer { again.stop() }
    let (_, count) = try await again.ask("/reader/api/0/unread-count")
    #expect(count.contains("reading-list"))
    again.process.kill(SIGTERM)
    #expect(await again.process.wait() == ChildProcess.Termination(waitStatus: 0))
    let log = String(decoding: again.errors.readDataToEndOfFile(), as: UTF8.self)
    #expect(log.contains("GET /reader/api/0/unread-count 200") && log.contains("stopped"))
  }
}
