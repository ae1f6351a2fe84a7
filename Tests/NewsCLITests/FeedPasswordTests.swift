import Foundation
import TestSupport
import Testing

/// A feed behind HTTP Basic authentication, its user and password in its URL as newsboat takes
/// them: the password is sent, and never shown.
@Suite("a feed URL with a password: sent as Basic authentication, never shown")
struct FeedPasswordTests {
  let harness: Harness
  /// The password of the tests: a word that appears nowhere else in what `news` prints.
  static let password = "hunter2pw"

  init() throws {
    harness = try Harness()
    let expected = "Basic " + Data("ann:\(Self.password)".utf8).base64EncodedString()
    let feed = Fixtures.data("feeds/atom10_1.xml")
    harness.server.route("/private.xml") { request in
      request.headers["authorization"] == expected
        ? LoopbackServer.Response(headers: ["Content-Type": "application/atom+xml"], body: feed)
        : LoopbackServer.Response(status: 401, headers: ["WWW-Authenticate": #"Basic realm="x""#])
    }
  }

  func url(password: String) -> String {
    "http://ann:\(password)@127.0.0.1:\(harness.server.port)/private.xml"
  }

  @Test("lists, JSON, the feed's report, exports and errors show the URL with its user alone")
  func neverShown() async throws {
    let added = await harness.run(
      ["sources", "add", url(password: Self.password), "--name", "private"])
    #expect(added.code == .success, "\(added.err)")
    #expect(
      harness.server.requests(to: "/private.xml").last?.headers["authorization"] != nil,
      "the password was sent")
    let shown = "http://ann@127.0.0.1:\(harness.server.port)/private.xml"
    #expect(added.out.contains(shown), "\(added.out)")
    let outputs = [
      added,
      await harness.run(["sources"]),
      await harness.run(["sources", "--json"]),
      await harness.run(["feed", "--refresh", "--source", "private", "--json"]),
      await harness.run(["sources", "export"]),
      await harness.run(["sources", "add", url(password: Self.password), "--name", "again"]),
    ]
    for output in outputs {
      #expect(!(output.out + output.err).contains(Self.password), "\(output.out)\(output.err)")
    }
    #expect(outputs[1].out.contains(shown))
    #expect(outputs[2].out.contains(shown))
    #expect(outputs[3].out.contains(shown))
    #expect(outputs[4].out.contains(shown))
  }

  @Test("a feed moved for good within its server is subscribed where it went, its password kept")
  func movedWithinOrigin() async throws {
    harness.server.route(
      "/old.xml", LoopbackServer.Response(status: 301, headers: ["Location": "/private.xml"]))
    let old = url(password: Self.password).replacingOccurrences(of: "private.xml", with: "old.xml")
    let added = await harness.run(["sources", "add", old, "--name", "private"])
    #expect(added.code == .success, "\(added.err)")
    #expect(!(added.out + added.err).contains(Self.password), "\(added.out)")
    #expect(added.out.contains("http://ann@127.0.0.1:\(harness.server.port)/private.xml"))
    let config = try String(
      contentsOfFile: harness.home.path("news/config.json"), encoding: .utf8)
    #expect(config.contains(url(password: Self.password)), "kept as it will be asked: \(config)")
    let refreshed = await harness.run(["feed", "--refresh", "--source", "private"])
    #expect(refreshed.code == .success, "\(refreshed.err)")
  }

  @Test("a refused password is an error that names the URL without it")
  func refused() async throws {
    let wrong = "wrongpw42"
    let result = await harness.run(["sources", "add", url(password: wrong), "--name", "private"])
    #expect(result.code != .success)
    #expect(result.err.contains("401"), "\(result.err)")
    #expect(!result.err.contains(wrong), "\(result.err)")
    #expect(result.err.contains("http://ann@127.0.0.1"), "\(result.err)")
  }
}
