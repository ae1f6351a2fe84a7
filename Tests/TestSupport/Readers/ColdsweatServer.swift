import Foundation
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
  public private(set) var port: UInt16 = 0
  private let directory = TemporaryDirectory()
  private let refusing: ClosedPort
  private let process = Process()

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
    process.executableURL = program
    // Port 0: the kernel picks a free one as the server binds it, so no other test's server can
    // take it in between (a port found free first, then bound, could be); the server says which.
    process.arguments = ["run", "-h", "127.0.0.1", "-p", "0", "--no-reload"]
    process.environment = environment
    process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    guard let announced = Self.announcedPort(errors.fileHandleForReading) else {
      kill(process.processIdentifier, SIGKILL)
      throw ColdsweatError.didNotStart
    }
    port = announced
    // Up when it accepts a connection: bounded, so that a broken install fails, never hangs.
    for _ in 0..<2_000 {
      if accepts() { return }
      guard process.isRunning else { break }
      usleep(10_000)
    }
    kill(process.processIdentifier, SIGKILL)
    throw ColdsweatError.didNotStart
  }

  deinit {
    // SIGKILL and waitpid: Foundation's waitUntilExit spins on Linux, and the development server
    // may outlive SIGTERM.
    let pid = process.processIdentifier
    if pid > 0 {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
    }
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
    let key = md5Hex(email + ":" + password)
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
    let step = Process()
    step.executableURL = program
    step.arguments = arguments
    step.environment = environment
    step.currentDirectoryURL = directory.url
    let output = Pipe()
    step.standardOutput = output
    step.standardError = output
    try step.run()
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    step.waitUntilExit()
    guard step.terminationStatus == 0 else {
      throw ColdsweatError.failed(
        arguments.first ?? "", String(decoding: printed, as: UTF8.self).suffix(400).description)
    }
  }

  /// The port of `Running on http://127.0.0.1:<port>` on the server's standard error, waited for
  /// 60 s at most (a bound for a broken install); what it writes afterwards (a line a request) is
  /// read and dropped until it ends, so that it never blocks on a full pipe.
  private static func announcedPort(_ errors: FileHandle) -> UInt16? {
    let found = DispatchSemaphore(value: 0)
    let port = Mutex<UInt16?>(nil)
    Thread {
      var text = ""
      while case let chunk = errors.availableData, !chunk.isEmpty {
        guard port.withLock({ $0 }) == nil else { continue }
        text += String(decoding: chunk, as: UTF8.self)
        if let range = text.range(of: "Running on http://127.0.0.1:") {
          let digits = text[range.upperBound...].prefix { $0.isNumber }
          if let number = UInt16(digits), digits.endIndex < text.endIndex {
            port.withLock { $0 = number }
            found.signal()
          }
        }
      }
      found.signal()
    }.start()
    _ = found.wait(timeout: .now() + 60)
    return port.withLock { $0 }
  }

  private func accepts() -> Bool {
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }

  /// POSTs a form with curl's command line (the test's own way in, apart from the code under
  /// test).
  private static func post(_ url: String, body: String) throws -> Data {
    let curl = Process()
    curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
    curl.arguments = ["-s", "--max-time", "20", "--noproxy", "*", "--data-binary", body, url]
    let output = Pipe()
    curl.standardOutput = output
    try curl.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    curl.waitUntilExit()
    guard curl.terminationStatus == 0 else { throw ColdsweatError.badAnswer }
    return data
  }
}

/// Why Coldsweat did not come up.
public enum ColdsweatError: Error {
  case notInstalled, didNotStart, badAnswer
  case failed(String, String)
}

/// MD5 as `md5sum` prints it, for the Fever key of a client that is not the code under test.
public func md5Hex(_ text: String) -> String {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/md5sum")
  let input = Pipe()
  let output = Pipe()
  process.standardInput = input
  process.standardOutput = output
  try? process.run()
  try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
  try? input.fileHandleForWriting.close()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return String(String(decoding: data, as: UTF8.self).prefix(32))
}
