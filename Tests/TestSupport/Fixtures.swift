import Foundation

/// The recorded responses in `Tests/TestSupport/Fixtures`, copied from `shared/fixtures/real`
/// (origins in its SOURCES.md) so that the package tests on its own.
public enum Fixtures {
  /// The folder holding the fixture files.
  public static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

  /// The bytes of fixture `name` (a file name with its extension).
  public static func data(_ name: String) -> Data {
    let url = directory.appendingPathComponent(name)
    guard let data = try? Data(contentsOf: url) else {
      fatalError("missing fixture \(url.path)")
    }
    return data
  }

  /// The text of fixture `name`.
  public static func text(_ name: String) -> String {
    String(decoding: data(name), as: UTF8.self)
  }
}
