import FeedParsing
import Foundation
import NewsCore
import TestSupport
import Testing

/// An account's credentials stay with its server: a login redirected to another origin is
/// refused (naming both), a URL holding a password is refused without showing it, and a
/// password bound for a plain-http host that is not this machine is warned about.
@Suite("accounts: credentials never leave their server")
struct AccountRedirectTests {
  let harness: Harness

  init() throws { harness = try Harness() }

  @Test(
    "a login redirected elsewhere (307, 308) is refused, naming both servers; nothing kept",
    arguments: [("greader", "/gr/accounts/ClientLogin", 307), ("fever", "/fever", 308)])
  func loginRedirected(kind: String, loginPath: String, status: Int) async throws {
    let other = try LoopbackServer()
    other.route(loginPath, .json(#"{"api_version":3,"auth":1,"feeds":[]}"#))
    harness.server.route(
      loginPath, .redirect(status, to: other.baseURL.absoluteString + loginPath))
    let base = harness.server.baseURL.absoluteString + (kind == "greader" ? "/gr" : "/fever")
    let result = await harness.run(
      ["accounts", "add", "srv", "--\(kind)", base, "--user", "ann", "--password-env", "PW"],
      environment: ["PW": "s3cret"])
    #expect(result.code == .unavailable, "\(result.err)")
    #expect(result.err.contains("127.0.0.1:\(harness.server.port)"), "\(result.err)")
    #expect(result.err.contains("127.0.0.1:\(other.port)"), "\(result.err)")
    #expect(result.err.contains("carries a credential"), "\(result.err)")
    #expect(!result.err.contains("s3cret"))
    #expect(other.requests.isEmpty, "the password reached the other server")
    #expect(await harness.run(["accounts"]).out.hasPrefix("No accounts"), "nothing kept")
  }

  @Test("an account URL holding a password is refused without showing it")
  func userInfoInURL() async throws {
    let result = await harness.run(
      [
        "accounts", "add", "srv", "--greader",
        "http://ann:hunter2@127.0.0.1:\(harness.server.port)/gr", "--user", "ann",
        "--password-env", "PW",
      ], environment: ["PW": "s3cret"])
    #expect(result.code == .usage)
    #expect(result.err.contains("must not hold a user name or password"), "\(result.err)")
    #expect(!result.err.contains("hunter2"))
    #expect(harness.server.requests.isEmpty)
  }

  @Test(
    "plain http to another host is warned about; https and loopback are not",
    arguments: [
      ("http://rss.example/api/fever.php", Account.Kind.fever, "the Fever key" as String?),
      ("http://rss.example/api/greader.php", .greader, "the password"),
      ("https://rss.example/api/greader.php", .greader, nil),
      ("http://127.0.0.1:8080/fever", .fever, nil),
      ("http://localhost/fever", .fever, nil),
      ("http://[::1]:5000/fever", .fever, nil),
    ])
  func plainText(url: String, kind: Account.Kind, words: String?) throws {
    let account = Account(name: "home", kind: kind, url: try #require(URL(string: url)), user: "a")
    #expect(account.plainTextWarning?.contains(words ?? "") == (words != nil ? true : nil))
    if words != nil {
      #expect(account.plainTextWarning?.contains("clear text over http:// to rss.example") == true)
    }
  }

  @Test("accounts add over plain http to this machine gives no warning")
  func loopbackNoWarning() async throws {
    harness.server.route("/fever", .json(#"{"api_version":3,"auth":1,"feeds":[],"groups":[]}"#))
    let result = await harness.run(
      [
        "accounts", "add", "srv", "--fever", harness.server.baseURL.absoluteString + "/fever",
        "--user", "ann", "--password-env", "PW",
      ], environment: ["PW": "s3cret"])
    #expect(result.code == .success, "\(result.err)")
    #expect(!result.err.contains("clear text"))
  }
}
