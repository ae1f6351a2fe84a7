import Foundation

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
}
