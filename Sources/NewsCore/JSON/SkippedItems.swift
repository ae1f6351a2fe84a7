/// What to tell the user about the items of an answer that were left out.
enum SkippedItems {
  /// `the articles API: skipped 2 of 5 items (missing field '[1].id'; …)`, or `nil` when none
  /// were skipped. At most three reasons are given.
  static func warning(_ source: String, skipped reasons: [String], of total: Int) -> String? {
    guard !reasons.isEmpty else { return nil }
    var shown = reasons.prefix(3).joined(separator: "; ")
    if reasons.count > 3 { shown += "; …" }
    return "\(source): skipped \(reasons.count) of \(total) item\(total == 1 ? "" : "s") (\(shown))"
  }
}
