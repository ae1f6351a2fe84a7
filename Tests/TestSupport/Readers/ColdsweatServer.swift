import Foundation
import NewsCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Coldsweat (a Fever API server, `pip install coldsweat`) run for real on 127.0.0.1, in a
/// temporary instance of its own: `.ci/run` installs it into `.build/coldsweat`; elsewhere
/// `NEWS_TEST_COLDSWEAT` names its `coldsweat` program. Its own requests to the world (favicons)
/// go to a proxy that refuses them: nothing leaves the machine.
// Its process is touched in init and deinit only.
public final class ColdsweatServer: @unchecked Sendable {
  /// Why it cannot run here, or `nil` when it can.
  public static var unavailableReason: String? {
    program == nil
      ? "Coldsweat is not installed (bash .ci/run installs it into .build/coldsweat; or set "
        + "NEWS_TEST_COLDSWEAT to its coldsweat program)" : nil
  }

  /// The `coldsweat` program, if there is one.
  static var program: URL? {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let candidates = [
      ProcessInfo.processInfo.environment["NEWS_TEST_COLDSWEAT"],
      root.appendingPathComponent(".build/coldsweat/bin/coldsweat").path,
    ].compactMap { $0 }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }.map {
      URL(fileURLWithPath: $0)
    }
  }

  public let email: String
  public let password: String
  /// The port the server listens on: the kernel's pick, as the server announced it.
  public var port: UInt16 { server?.port ?? 0 }
  private let directory = TemporaryDirectory()
  private let refusing: ClosedPort
  private var server: ServerProcess?

  /// The URL `news accounts add --fever` takes.
  public var url: URL { URL(string: "http://127.0.0.1:\(port)/fever")! }

  /// Sets up an instance with one user, subscribes it to the feeds of `opml` (fetched at once)
  /// and starts the server; throws when any step fails.
  public init(email: String, password: String, opml: String) throws {
    guard let program = Self.program else { throw ColdsweatError.notInstalled }
    self.email = email
    self.password = password
    refusing = try ClosedPort()
    try run(program, ["setup", email, "-p", password, "-n", "Test"])
    let file = try directory.write("subscriptions.opml", opml)
    try run(program, ["import", "-f", file, email])
    server = try ServerProcess(
      program: program, arguments: ["run", "-h", "127.0.0.1", "-p", "0", "--no-reload"],
      environment: environment, announcement: "Running on http://127.0.0.1:")
  }

  /// Subscribes the user to the feeds of `opml` too, fetched at once (`coldsweat import -f`).
  /// (Coldsweat fetches a feed at most every 3 minutes: a test adds items with a new feed.)
  public func subscribe(_ opml: String) throws {
    guard let program = Self.program else { throw ColdsweatError.notInstalled }
    let file = try directory.write("more.opml", opml)
    try run(program, ["import", "-f", file, email])
  }

  /// A Fever API call as another client makes it: `?api&<query>`, the key and `form` posted.
  public func call(_ query: String, form: String = "") throws -> [String: Any] {
    let key = try md5Hex(email + ":" + password)
    let body = try Self.post(
      url.absoluteString + "?api&" + query,
      body: "api_key=\(key)" + (form.isEmpty ? "" : "&" + form))
    guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
      throw ColdsweatError.badAnswer
    }
    return object
  }

  /// The ids of `unread_item_ids` or `saved_item_ids`.
  public func ids(_ command: String) throws -> Set<String> {
    let text = try call(command)[command] as? String ?? ""
    return Set(text.split(separator: ",").map(String.init))
  }

  private var environment: [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["FLASK_DATABASE_URL"] = "sqlite:///" + directory.path("coldsweat.db")
    environment["FLASK_SECRET_KEY"] = "test only"
    environment["HTTP_PROXY"] = refusing.baseURL.absoluteString
    environment["HTTPS_PROXY"] = refusing.baseURL.absoluteString
    environment["http_proxy"] = refusing.baseURL.absoluteString
    environment["https_proxy"] = refusing.baseURL.absoluteString
    environment["NO_PROXY"] = "127.0.0.1,localhost"
    environment["no_proxy"] = "127.0.0.1,localhost"
    return environment
  }

  private func run(_ program: URL, _ arguments: [String]) throws {
    let step = try Spawned(
      program, arguments: arguments, environment: environment, directory: directory.url,
      output: .pipe, errors: .pipe)
    let (termination, output, errors) = step.collectBlocking()
    guard termination == ChildProcess.Termination(waitStatus: 0) else {
      throw ColdsweatError.failed(
        arguments.first ?? "",
        String(decoding: output + errors, as: UTF8.self).suffix(400).description)
    }
  }

  /// POSTs a form with curl's command line (the test's own way in, apart from the code under
  /// test).
  private static func post(_ url: String, body: String) throws -> Data {
    let curl = try Spawned(
      URL(fileURLWithPath: "/usr/bin/curl"),
      arguments: ["-s", "--max-time", "20", "--noproxy", "*", "--data-binary", body, url],
      output: .pipe)
    let (termination, data, _) = curl.collectBlocking()
    guard termination == ChildProcess.Termination(waitStatus: 0) else {
      throw ColdsweatError.badAnswer
    }
    return data
  }
}

/// Why Coldsweat did not come up.
public enum ColdsweatError: Error {
  case notInstalled, didNotStart, badAnswer
  case failed(String, String)
}

/// MD5 as `md5sum` prints it, for the Fever key of a client that is not the code under test.
public func md5Hex(_ text: String) throws -> String {
  // The text is a few bytes, well within a pipe's buffer: written before anything is read.
  let process = try Spawned(URL(fileURLWithPath: "/usr/bin/md5sum"), input: .pipe, output: .pipe)
  var bytes = Array(text.utf8)
  _ = write(process.input, &bytes, bytes.count)
  process.closeInput()
  let data = process.collectBlocking().output
  return String(String(decoding: data, as: UTF8.self).prefix(32))
}
