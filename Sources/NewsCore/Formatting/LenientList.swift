/// A list decoded element by element: an element that does not decode is kept as the reason why,
/// so that one malformed item does not fail a whole answer.
struct LenientList<Element: Decodable>: Decodable {
  /// The elements that decoded, in order.
  var elements: [Element] = []
  /// Why the others did not, e.g. `missing field '[3].id'`.
  var failures: [String] = []
  /// How many elements the list had.
  var count: Int { elements.count + failures.count }

  init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    while !container.isAtEnd {
      let element = try container.decode(OneElement.self)
      switch element.result {
      case .success(let value): elements.append(value)
      case .failure(let failure): failures.append(failure.reason)
      }
    }
  }

  private struct OneElement: Decodable {
    var result: Result<Element, Failure>

    struct Failure: Error { var reason: String }

    init(from decoder: any Decoder) throws {
      do {
        result = .success(try Element(from: decoder))
      } catch {
        result = .failure(Failure(reason: DecodingErrorDescription.describe(error)))
      }
    }
  }
}

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
