import Foundation
import NewsCore

/// `news doctor`: where the files are, which key is used, and whether every file decrypts.
enum DoctorCommand {
  static let spec = CommandSpec(
    name: "doctor",
    abstract: "Check the encrypted store: paths, key, and whether every file decrypts.",
    discussion: """
      Exits 0 when every file is readable, 74 when one is not (a wrong NEWS_STORE_KEY, a replaced
      key file, corruption or tampering). Files that fail are never overwritten by news. It
      creates nothing: on a new machine it says there is no key yet. Temporary files left by an
      interrupted write are listed; the next write removes them.

      --repair makes a damaged store usable again, losing only what cannot be read: a segment is
      written again from the parts that read, a manifest that is damaged, missing or an older copy
      is rebuilt from the segment files, damaged listings and feed caches are removed (the next
      fetch writes them again), a damaged file of read marks or of an account is removed (what it
      costs is said), a damaged key check is written again. Bookmarks are never touched. The key
      is checked first: with a wrong key nothing is done.

      EXAMPLES:
        news doctor
        news doctor --json
        news doctor --repair
      """,
    options: [Options.json.spec, Options.repair.spec])

  static let entry = CommandEntry(spec: spec, run: run)

  static func run(_ arguments: ParsedArguments, context: Context) async throws -> ExitCode {
    let configuration = try context.configuration()
    let services = try context.services()
    let repairs = arguments[Options.repair] ? try services.repair() : nil
    let report = try services.doctor()
    let healthy = report.files.allSatisfy { $0.error == nil }
    if arguments[Options.json] {
      context.printer.json(
        DoctorJSON.document(
          report, paths: configuration.paths, healthy: healthy, repairs: repairs))
    } else {
      context.printer.text(
        DoctorText.report(
          report, paths: configuration.paths, repairs: repairs, healthy: healthy,
          style: context.style(configuration)))
    }
    return healthy ? .success : .ioError
  }
}
