import Foundation
import NewsCore
import Testing

@testable import NewsServer

/// Signing in: the password checked as kept (salted, stretched), tokens for reading and for
/// changes, and an address that guesses slowed down without slowing the others.
@Suite("news serve: logins, tokens and the throttle")
struct ServeLoginTests {
  static let login = ServerLogin(user: "ann", password: "s3cret pass", fever: true, iterations: 2)

  @Test("ClientLogin: a right password gives Auth (text or JSON), a wrong one 401")
  func clientLogin() throws {
    let served = try ServedStore(login: Self.login)
    let wrong = try served.ask(
      "/accounts/ClientLogin", form: [("Email", "ann"), ("Passwd", "wrong")])
    #expect(wrong.status == 401 && wrong.text == "Error=BadAuthentication\n")
    let otherUser = try served.ask(
      "/accounts/ClientLogin", form: [("Email", "bob"), ("Passwd", "s3cret pass")])
    #expect(otherUser.status == 401)
    let right = try served.ask(
      "/accounts/ClientLogin", form: [("Email", "ann"), ("Passwd", "s3cret pass")])
    #expect(right.status == 200)
    let auth = try #require(
      right.text.split(separator: "\n").first { $0.hasPrefix("Auth=") }?.dropFirst(5))
    #expect(auth.hasPrefix("ann/") && !auth.contains("s3cret"))
    let json = try served.ask(
      "/accounts/ClientLogin?output=json", form: [("Email", "ann"), ("Passwd", "s3cret pass")])
    #expect(try json.json()["Auth"] as? String == String(auth))

    #expect(try served.ask("/reader/api/0/subscription/list").status == 401)
    #expect(try served.ask("/reader/api/0/subscription/list", auth: "ann/0000").status == 401)
    #expect(try served.ask("/reader/api/0/subscription/list", auth: String(auth)).status == 200)
  }

  @Test("a change needs T: missing or stale is 401 with both bad-token headers")
  func editToken() throws {
    let served = try ServedStore(login: Self.login)
    let auth = ReaderServer.authToken(Self.login)
    let item = try served.ids("s=user/-/state/com.google/reading-list")[0]
    let path = "/reader/api/0/edit-tag"
    let form = [("i", String(item)), ("a", "user/-/state/com.google/read")]
    for token in [nil, "stale"] {
      let refused = try served.ask(path, form: form + (token.map { [("T", $0)] } ?? []), auth: auth)
      #expect(refused.status == 401)
      #expect(refused.header("Google-Bad-Token") == "true")
      #expect(refused.header("X-Reader-Google-Bad-Token") == "true")
    }
    let token = try served.ask("/reader/api/0/token", auth: auth).text
      .trimmingCharacters(in: .newlines)
    #expect(try served.ask(path, form: form + [("T", token)], auth: auth).status == 200)
    let info = try served.reader("user-info", auth: auth)
    #expect(info["userName"] as? String == "ann")
  }

  @Test("five failures from one address: 429 and Retry-After, doubling; the others sign in")
  func throttle() throws {
    let served = try ServedStore(login: Self.login)
    func login(_ password: String, from address: String = "10.0.0.1") throws
      -> ServedStore.Answer
    {
      try served.ask(
        "/accounts/ClientLogin", form: [("Email", "ann"), ("Passwd", password)], from: address)
    }
    for _ in 0..<5 { #expect(try login("guess").status == 401) }
    // Blocked for a second: even the right password is not tried.
    let blocked = try login("s3cret pass")
    #expect(blocked.status == 429 && blocked.header("Retry-After") == "1")
    #expect(try login("s3cret pass", from: "10.0.0.2").status == 200)
    served.clock.advance(1)
    #expect(try login("guess").status == 401)
    #expect(try login("guess").header("Retry-After") == "2")
    served.clock.advance(2)
    #expect(try login("s3cret pass").status == 200)
    // A success forgets the failures.
    #expect(try login("guess").status == 401)
    #expect(try login("guess").status == 401)
    // Fever's key counts as a login too.
    for _ in 0..<5 {
      let refused = try served.ask("/fever/?api", form: [("api_key", "0")], from: "10.0.0.3")
      #expect(try refused.json()["auth"] as? Int == 0)
    }
    #expect(try served.ask("/fever/?api", form: [("api_key", "0")], from: "10.0.0.3").status == 429)
  }

  @Test("a thousand wrong logins from one address: five are tried, the rest answered 429 at once")
  func thousandGuesses() throws {
    let served = try ServedStore(login: Self.login)
    var statuses: [Int: Int] = [:]
    for _ in 0..<1_000 {
      let answer = try served.ask(
        "/accounts/ClientLogin", form: [("Email", "ann"), ("Passwd", "guess")], from: "10.1.1.1")
      statuses[answer.status, default: 0] += 1
    }
    #expect(statuses == [401: 5, 429: 995])
    #expect(
      try served.ask(
        "/accounts/ClientLogin", form: [("Email", "ann"), ("Passwd", "s3cret pass")],
        from: "10.1.1.2"
      ).status == 200)
  }

  @Test("the throttle's wait doubles up to fifteen minutes")
  func longestWait() {
    let clock = ManualSeconds()
    let throttle = LoginThrottle(clock: { clock.now })
    for _ in 0..<40 { throttle.failed("10.0.0.9") }
    #expect(throttle.wait(for: "10.0.0.9") == 900)
    #expect(throttle.wait(for: "10.0.0.8") == nil)
  }

  @Test("the login keeps no password: a salted derivation, a new salt and secret each time")
  func kept() throws {
    let again = ServerLogin(user: "ann", password: "s3cret pass", fever: false, iterations: 2)
    #expect(again != Self.login)
    #expect(again.feverKey == nil && !again.acceptsFever(key: Self.login.feverKey ?? ""))
    #expect(Self.login.acceptsFever(key: "\(Self.login.feverKey ?? "")".uppercased()))
    let encoded = String(decoding: try JSONEncoder().encode(Self.login), as: UTF8.self)
    #expect(!encoded.contains("s3cret"))
    #expect(again.token("auth") != Self.login.token("auth"))
    #expect(again.accepts(user: "ann", password: "s3cret pass"))
    #expect(!again.accepts(user: "ann", password: "s3cret pas"))
  }
}
