import Foundation

/// A value the store writes as JSON of its own making, without `JSONEncoder`: large, simple
/// records written often (first-seen times, the last listing's ids), where the encoder's
/// generic walk was most of the cost. What it writes decodes, with the store's decoder, as the
/// value; the keys' order and the escapes may differ from the encoder's.
protocol CompactJSONEncodable {
  /// The JSON; `nil` when the value holds what this writer does not write (the encoder then
  /// writes it, or refuses it as it always did).
  var compactJSON: [UInt8]? { get }
}

extension CompactJSONEncodable {
  /// `seconds` as a JSON number (the shortest text that reads back as the same `Double`);
  /// `false` for one JSON cannot hold (not finite).
  static func appendNumber(_ seconds: Double, to out: inout [UInt8]) -> Bool {
    guard seconds.isFinite else { return false }
    out.append(contentsOf: seconds.description.utf8)
    return true
  }
}

extension Dictionary: CompactJSONEncodable where Key == String, Value == Double {
  /// `{"<key>":<number>,…}`.
  var compactJSON: [UInt8]? {
    var out: [UInt8] = [UInt8(ascii: "{")]
    out.reserveCapacity(count * 96)
    for (key, value) in self {
      if out.count > 1 { out.append(UInt8(ascii: ",")) }
      JSONValue.writeString(key, to: &out)
      out.append(UInt8(ascii: ":"))
      guard Self.appendNumber(value, to: &out) else { return nil }
    }
    out.append(UInt8(ascii: "}"))
    return out
  }
}
