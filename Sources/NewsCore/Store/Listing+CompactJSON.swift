import FeedParsing
import Foundation

extension Listing: CompactJSONEncodable {
  /// A listing of ids only (a long one): `{"key":…,"provider":…,"ids":[…],"totalResults":…,
  /// "fetchedAt":<seconds>}`; one carrying its articles is left to the encoder.
  var compactJSON: [UInt8]? {
    guard articles == nil else { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(ids.count * 70 + 256)
    out.append(contentsOf: #"{"key":"#.utf8)
    JSONValue.writeString(key, to: &out)
    out.append(contentsOf: #","provider":"#.utf8)
    JSONValue.writeString(provider, to: &out)
    out.append(contentsOf: #","ids":["#.utf8)
    for (index, id) in ids.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      JSONValue.writeString(id, to: &out)
    }
    out.append(contentsOf: #"],"totalResults":"#.utf8)
    out.append(contentsOf: String(totalResults).utf8)
    out.append(contentsOf: #","fetchedAt":"#.utf8)
    guard Self.appendNumber(fetchedAt.timeIntervalSince1970, to: &out) else { return nil }
    out.append(UInt8(ascii: "}"))
    return out
  }
}

extension Listing {
  /// Whether two listings written as ``compactJSON`` writes them differ in their time alone:
  /// the same bytes up to `"fetchedAt":`, which ends both, then only a number. (A listing
  /// written otherwise, by `JSONEncoder` or with its articles, is not told apart here.)
  static func sameButTime(_ held: [UInt8], _ new: [UInt8]) -> Bool {
    let marker = Array(#","fetchedAt":"#.utf8)
    guard let heldTime = held.withUnsafeBufferPointer({ lastRange(of: marker, in: $0) }),
      let newTime = new.withUnsafeBufferPointer({ lastRange(of: marker, in: $0) }),
      heldTime == newTime
    else { return false }
    let number = { (bytes: [UInt8], from: Int) -> Bool in
      bytes.last == UInt8(ascii: "}")
        && bytes[from..<(bytes.count - 1)].allSatisfy {
          ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D || $0 == 0x2B || $0 == 0x65
            || $0 == 0x45
        }
    }
    guard number(held, heldTime.upperBound), number(new, newTime.upperBound) else { return false }
    return held.withUnsafeBytes { heldBytes in
      new.withUnsafeBytes { newBytes in
        memcmp(heldBytes.baseAddress!, newBytes.baseAddress!, heldTime.lowerBound) == 0
      }
    }
  }
}
