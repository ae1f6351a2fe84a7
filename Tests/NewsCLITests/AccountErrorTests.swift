import FeedParsing
import Foundation
import NewsCore
import TestSupport
import Testing

/// What an account's server can get wrong, each an error naming the account with its exit code,
/// and what the command line refuses before asking anything.
@Suite("accounts: wrong answers and wrong arguments")
struct AccountErrorTests {
  let harness: Harness

  init() throws { harness = try Harness() }

  func add(_ kind: String, path: String, password: String? = "pw") async -> RunResult {
    await harness.run(
      [
        "accounts", "add", "srv", "--\(kind)", harness.server.baseURL.absoluteString + path,
        "--user", "ann", "--password-env", "PW",
      ], environment: ["PW": password])
  }

  @Test(
    "a Fever server's answers: refused (77), not the API (65), an error status (69)",
    arguments: [
      (
        LoopbackServer.Response.json(#"{"api_version":3,"auth":0}"#), ExitCode.permissionDenied,
        "the server refused the user name or password"
      ),
      (.json("<html>login</html>"), .dataError, "an HTML page, not JSON"),
      (.json(#"{"hello":1}"#), .dataError, "is this a Fever API URL?"),
      (.json(#"{"auth":1}"#), .dataError, "no 'feeds' list"),
      (.json("", status: 500), .unavailable, "the server answered HTTP 500"),
      (.json("", status: 401), .permissionDenied, "refused"),
    ])
  func fever(response: LoopbackServer.Response, code: ExitCode, words: String) async throws {
    harness.server.route("/fever", response)
    let result = await add("fever", path: "/fever")
    #expect(result.code == code, "\(result.err)")
    #expect(result.err.hasPrefix("news: account srv: "), "\(result.err)")
    #expect(result.err.contains(words), "\(result.err)")
    let sent = try #require(harness.server.requests.first)
    #expect(sent.method == "POST" && sent.target.contains("api"))
    // The key is MD5 of user:password, in the body: never the password, never in the URL.
    #expect(String(decoding: sent.body, as: UTF8.self).hasPrefix("api_key="))
    #expect(
      !sent.target.contains("api_key")
        && !String(decoding: sent.body, as: UTF8.self).contains("pw&"))
    #expect(await harness.run(["accounts"]).out.hasPrefix("No accounts"), "nothing kept")
  }

  @Test(
    "an address where the kind's API does not answer is said so, with the address it takes",
    arguments: [
      ("miniflux", "/v1/me", 404, "no Miniflux API answers at", "its API under /v1/"),
      ("ttrss", "/api/", 501, "no Tiny Tiny RSS API answers at", "its API under /api/"),
      (
        "nextcloud", "/index.php/apps/news/api/v1-3/version", 405, "no Nextcloud News API", "News's"
      ),
    ])
  func noAPI(kind: String, path: String, status: Int, says: String, hint: String) async {
    harness.server.route(path, .json("", status: status))
    let result = await add(kind, path: "/")
    #expect(result.code == .unavailable, "\(result.err)")
    #expect(result.err.contains("news: account srv: \(says) "), "\(result.err)")
    #expect(result.err.contains("; the address to give is the "), "\(result.err)")
    #expect(result.err.contains(hint), "\(result.err)")
    #expect(await harness.run(["accounts"]).out.hasPrefix("No accounts"), "nothing kept")
  }

  @Test("a Google Reader server without Auth, or with the wrong shape")
  func greader() async throws {
    harness.server.route("/gr/accounts/ClientLogin", .json("SID=x\n"))
    let noAuth = await add("greader", path: "/gr")
    #expect(noAuth.code == .dataError)
    #expect(noAuth.err.contains("ClientLogin sent no Auth"))

    harness.server.route("/gr/accounts/ClientLogin", .json("Auth=abc\n"))
    harness.server.route("/gr/reader/api/0/subscription/list", .json(#"{"feeds":[]}"#))
    let shape = await add("greader", path: "/gr")
    #expect(shape.code == .dataError)
    #expect(
      shape.err.contains(
        "account srv: the server's answer is not what its API sends: no 'subscriptions' list"))
    let login = try #require(harness.server.requests(to: "/gr/accounts/ClientLogin").first)
    #expect(String(decoding: login.body, as: UTF8.self) == "Email=ann&Passwd=pw")
    #expect(
      harness.server.requests(to: "/gr/reader/api/0/subscription/list").first?.headers[
        "authorization"] == "GoogleLogin auth=abc")
  }

  @Test(
    "the command line: what add needs, what contradicts, names",
    arguments: [
      (
        ["accounts", "add", "x", "--user", "u"],
        "'add' needs the server's kind and URL: one of --greader <url>"
      ),
      (
        [
          "accounts", "add", "x", "--fever", "http://a/f", "--greader", "http://a/g", "--user", "u",
        ], "contradict"
      ),
      (["accounts", "add", "x", "--fever", "ftp://a/f", "--user", "u"], "not an http(s) URL"),
      (["accounts", "add", "x", "--fever", "http://a/f"], "'add' needs --user"),
      (["accounts", "add", "--fever", "http://a/f", "--user", "u"], "missing <name>"),
      (["accounts", "test"], "missing <name>"),
      (["accounts", "list", "x"], "unexpected argument 'x'"),
      (
        ["accounts", "remove", "x", "--json"],
        "--json only applies to 'news accounts' and 'news accounts list'"
      ),
      (["accounts", "test", "x", "--user", "u"], "--user only applies to 'news accounts add'"),
      (
        [
          "accounts", "add", "Bad_Name", "--fever", "http://a/f", "--user", "u", "--password-env",
          "PW",
        ], "not a valid account name"
      ),
      (
        ["accounts", "add", "bbc", "--fever", "http://a/f", "--user", "u", "--password-env", "PW"],
        "not a valid account name"
      ),
      (
        [
          "accounts", "add", "x", "--fever", "http://a/f", "--user", "u", "--password-env", "UNSET",
        ], "the variable UNSET (--password-env) is not set"
      ),
      (
        [
          "accounts", "add", "x", "--fever", "http://a/f", "--user", "u", "--password-file",
          "nowhere",
        ], "cannot read --password-file nowhere"
      ),
      (
        ["accounts", "add", "x", "--fever", "http://a/f", "--user", "u"],
        "standard input is not a terminal"
      ),
      (["accounts", "test", "nobody"], "unknown account 'nobody'"),
      (["sync", "--account", "nobody"], "unknown account 'nobody'"),
    ])
  func usage(arguments: [String], words: String) async throws {
    let result = await harness.run(arguments, environment: ["PW": "pw"])
    #expect(result.code == .usage, "\(result.err)")
    #expect(result.err.contains(words), "\(result.err)")
    #expect(harness.server.requests.isEmpty)
  }

  @Test("the same user on the same server twice is refused (every item would come twice)")
  func sameServerTwice() async throws {
    harness.server.route("/fever", .json(#"{"api_version":3,"auth":1,"feeds":[],"groups":[]}"#))
    let url = harness.server.baseURL.absoluteString + "/fever"
    let add = { (name: String, url: String, user: String) in
      await self.harness.run(
        ["accounts", "add", name, "--fever", url, "--user", user, "--password-env", "PW"],
        environment: ["PW": "pw"])
    }
    #expect(await add("one", url, "ann").code == .success)
    let again = await add(
      "two", url.uppercased().replacingOccurrences(of: "/FEVER", with: "/fever/"), "ann")
    #expect(again.code == .usage)
    #expect(
      again.err == "news: account 'one' is that user on that server already (news accounts "
        + "remove one first; see 'news accounts add --help')\n", "\(again.err)")
    // Another user of the server is another account.
    #expect(await add("three", url, "bob").code == .success)
  }

  @Test("the password from a file: its first line")
  func passwordFile() async throws {
    harness.server.route("/fever", .json(#"{"api_version":3,"auth":1,"feeds":[],"groups":[]}"#))
    let file = try harness.home.write("pw.txt", "from-a-file\nsecond line\n")
    let result = await harness.run([
      "accounts", "add", "srv", "--fever", harness.server.baseURL.absoluteString + "/fever",
      "--user", "ann", "--password-file", file,
    ])
    #expect(result.code == .success, "\(result.err)")
    let body = String(decoding: try #require(harness.server.requests.first).body, as: UTF8.self)
    #expect(try body == "api_key=" + md5Hex("ann:from-a-file"))
    let listed = await harness.run(["accounts"])
    #expect(listed.out.contains("srv  fever  ann at http://127.0.0.1:"))
    #expect(listed.out.contains("/fever  not synced yet (news sync --account srv)"))
    #expect(!listed.out.contains("from-a-file"))
    let subscribe = await harness.run(
      ["sources", "add", "https://x.example/rss", "--account", "srv"])
    #expect(subscribe.code == .usage)
    #expect(subscribe.err.contains("account srv: the Fever API cannot change subscriptions"))
  }
}
