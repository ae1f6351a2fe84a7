/// `application/x-www-form-urlencoded`, as queries and form bodies write it: `a=1&b=x+y&c=%C3%A9`.
enum FormEncoding {
  /// The parameters of `text`, decoded, in order; a part without `=` is a name with an empty
  /// value. Percent escapes that are broken, or that do not make UTF-8, are an error.
  static func parameters(_ text: String) throws(HTTPError) -> [(name: String, value: String)] {
    var result: [(name: String, value: String)] = []
    for part in text.split(separator: "&", omittingEmptySubsequences: true) {
      let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard let name = percentDecoded(String(pieces[0]), plusIsSpace: true),
        let value = percentDecoded(pieces.count > 1 ? String(pieces[1]) : "", plusIsSpace: true)
      else { throw .badRequest("a parameter is not percent-encoded UTF-8") }
      result.append((name, value))
    }
    return result
  }

  /// `text` with `%XX` decoded (and `+` as a space when `plusIsSpace`); `nil` when an escape is
  /// broken or the bytes are not UTF-8.
  static func percentDecoded(_ text: String, plusIsSpace: Bool) -> String? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
      switch byte {
      case UInt8(ascii: "%"):
        guard let high = iterator.next().flatMap(hexValue),
          let low = iterator.next().flatMap(hexValue)
        else { return nil }
        bytes.append(high << 4 | low)
      case UInt8(ascii: "+") where plusIsSpace:
        bytes.append(UInt8(ascii: " "))
      default:
        bytes.append(byte)
      }
    }
    return String(validating: bytes, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
