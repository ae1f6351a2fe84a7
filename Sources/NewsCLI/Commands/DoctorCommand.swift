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
    let paths = configuration.paths
    let key = report.keySource
    let reports = report.files
    let leftovers = report.leftovers
    let healthy = reports.allSatisfy { $0.error == nil }
    if arguments[Options.json] {
      let document = DoctorJSON.document(
        report, paths: paths, healthy: healthy, repairs: repairs)
      context.console.out(document.serialized(pretty: true) + "\n")
    } else {
      let style = context.style(configuration)
      var text = style.bold("news store") + "\n"
      text += "config: \(paths.configDirectory.path)\n"
      text += "data:   \(paths.dataDirectory.path)\n"
      text += "cache:  \(paths.cacheDirectory.path)\n"
      text += "key:    \(key ?? "no key yet (one is made on first use)")\n"
      text += reports.isEmpty ? "\nNo files yet.\n" : "\n"
      // A wrong key fails every file for one reason: said once, not once a file.
      let rejected = report.keyRejected
      if let rejected {
        text += style.red("FAILED") + " " + rejected + " (\(reports.count) files)\n"
      }
      // Where the data and cache directories differ, a file of the cache says so (both have a
      // keycheck).
      let cacheDirectory = paths.cacheDirectory.standardizedFileURL.path + "/"
      let separate =
        paths.cacheDirectory.standardizedFileURL != paths.dataDirectory.standardizedFileURL
      for report in reports where rejected == nil {
        let status = report.error == nil ? "ok    " : style.red("FAILED")
        let place = separate && report.path.hasPrefix(cacheDirectory) ? "cache: " : ""
        text += "\(status) \(place)\(report.name) (\(report.bytes) bytes)\n"
        if let error = report.errorSentence { text += "       \(error)\n" }
      }
      if !leftovers.isEmpty {
        text += "\nLeft by an interrupted write (the next write removes them):\n"
        for path in leftovers { text += "       \(path)\n" }
      }
      if let repairs {
        text += repairs.isEmpty ? "\nNothing to repair.\n" : "\nRepaired:\n"
        for repair in repairs { text += "       \(repair)\n" }
      }
      text +=
        healthy
        ? "\nAll files decrypt.\n" : "\nSome files do not decrypt; they were left untouched.\n"
      context.console.out(text)
    }
    return healthy ? .success : .ioError
  }
}
