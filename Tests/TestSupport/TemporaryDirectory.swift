import Foundation
import NewsCore

/// A fresh directory under the system's temporary directory, removed when the value goes away.
public final class TemporaryDirectory: Sendable {
  /// Its location.
  public let url: URL

  /// Creates the directory.
  public init() {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("news-tests-\(UUID().uuidString)", isDirectory: true)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  /// The path of `name` inside it.
  public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  /// Writes `text` to `name` inside it and returns the path.
  @discardableResult
  public func write(_ name: String, _ text: String) throws -> String {
    let path = self.path(name)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// Writes `text` to `name` inside it as an executable script and returns the path.
  ///
  /// The script is written by a child (`cp`), never through a descriptor of the test process:
  /// a program another test starts at that moment holds a copy of every descriptor the process
  /// has open until it runs its own, and a file open for writing anywhere cannot be run
  /// (`ETXTBSY`, "text file busy"). The text goes first to `name.text`, which is never run.
  @discardableResult
  public func writeExecutable(_ name: String, _ text: String) throws -> String {
    let source = try write(name + ".text", text)
    let path = self.path(name)
    let copy = try Spawned(
      URL(fileURLWithPath: "/bin/sh"),
      arguments: ["-c", #"cp "$1" "$2" && chmod 755 "$2""#, "sh", source, path])
    let termination = copy.waitBlocking()
    guard !termination.signalled, termination.status == 0 else {
      throw SpawnError.failed(program: "cp", termination: termination)
    }
    return path
  }
}
