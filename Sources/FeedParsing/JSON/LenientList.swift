/// A list decoded element by element: an element that does not decode is kept as the reason why,
/// so that one malformed item does not fail a whole answer.
package struct LenientList<Element: Decodable>: Decodable {
  /// The elements that decoded, in order.
  package var elements: [Element] = []
  /// Why the others did not, e.g. `missing field '[3].id'`.
  package var failures: [String] = []
  /// How many elements the list had.
  package var count: Int { elements.count + failures.count }

  package init(from decoder: any Decoder) throws {
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
    package var result: Result<Element, Failure>

    package struct Failure: Error { var reason: String }

    package init(from decoder: any Decoder) throws {
      do {
        result = .success(try Element(from: decoder))
      } catch {
        result = .failure(Failure(reason: DecodingErrorDescription.describe(error)))
      }
    }
  }
}
