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
