import NewsCore

/// `news doctor` as text (the JSON is ``DoctorJSON``'s): the directories, the key, each file and
/// whether it decrypts, what an interrupted write left, what a repair did.
enum DoctorText {
  static func report(
    _ report: StoreReport, paths: Paths, repairs: [String]?, healthy: Bool, style: Style
  ) -> String {
    let reports = report.files
    var text = style.bold("news store") + "\n"
    text += "config: \(paths.configDirectory.path)\n"
    text += "data:   \(paths.dataDirectory.path)\n"
    text += "cache:  \(paths.cacheDirectory.path)\n"
    text += "key:    \(report.keySource ?? "no key yet (one is made on first use)")\n"
    text += reports.isEmpty ? "\nNo files yet.\n" : "\n"
    // A wrong key fails every file for one reason: said once, not once a file.
    let rejected = report.keyRejected
    if let rejected {
      text += style.red("FAILED") + " " + rejected + " (\(reports.count.counted("file")))\n"
    }
    // Where the data and cache directories differ, a file of the cache says so (both have a
    // keycheck).
    let cacheDirectory = paths.cacheDirectory.standardizedFileURL.path + "/"
    let separate =
      paths.cacheDirectory.standardizedFileURL != paths.dataDirectory.standardizedFileURL
    for report in reports where rejected == nil {
      let status = report.error == nil ? "ok    " : style.red("FAILED")
      let place = separate && report.path.hasPrefix(cacheDirectory) ? "cache: " : ""
      text += "\(status) \(place)\(report.name) (\(report.bytes.counted("byte")))\n"
      if let error = report.errorSentence { text += "       \(error)\n" }
    }
    if !report.leftovers.isEmpty {
      text += "\nLeft by an interrupted write (the next write removes them):\n"
      for path in report.leftovers { text += "       \(path)\n" }
    }
    if let repairs {
      text += repairs.isEmpty ? "\nNothing to repair.\n" : "\nRepaired:\n"
      for repair in repairs { text += "       \(repair)\n" }
    }
    if healthy {
      text += "\nAll files decrypt.\n"
    } else if rejected != nil || repairs != nil {
      // A wrong key is no damage to repair; after a repair, what is left is what it cannot mend.
      text += "\nSome files do not decrypt; they were left untouched.\n"
    } else {
      text +=
        "\nSome files do not decrypt; they were left untouched. 'news doctor --repair' makes "
        + "the store usable again, losing only what cannot be read.\n"
    }
    return text
  }
}
