import Foundation
import NewsCore

/// `news doctor --json`: `{"schemaVersion","paths":{"config","data","cache"},"key","files":
/// [{"name","path","bytes","status","error"}],"leftovers","keyRejected","ok","repairs"?}`.
enum DoctorJSON {
  static func document(
    _ report: StoreReport, paths: Paths, healthy: Bool, repairs: [String]?
  ) -> JSONValue {
    .object(
      [
        ("schemaVersion", .int(ArticleJSON.schemaVersion)),
        (
          "paths",
          .object([
            ("config", .string(paths.configDirectory.path)),
            ("data", .string(paths.dataDirectory.path)),
            ("cache", .string(paths.cacheDirectory.path)),
          ])
        ),
        ("key", .string(report.keySource)),
        (
          "files",
          .array(
            report.files.map { report in
              .object([
                ("name", .string(report.name)), ("path", .string(report.path)),
                ("bytes", .int(report.bytes)),
                ("status", .string(report.error == nil ? "ok" : "error")),
                ("error", .string(report.errorSentence)),
              ])
            })
        ),
        ("leftovers", .array(report.leftovers.map { .string($0) })),
        ("keyRejected", .string(report.keyRejected)),
        ("ok", .bool(healthy)),
      ] + (repairs.map { [("repairs", .array($0.map { .string($0) }))] } ?? []))
  }
}
