/// An id sent as a number or as a string.
package struct FlexibleID: Decodable {
  package var text: String

  package init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let number = try? container.decode(Int.self) {
      text = String(number)
    } else {
      text = try container.decode(String.self)
    }
  }
}
