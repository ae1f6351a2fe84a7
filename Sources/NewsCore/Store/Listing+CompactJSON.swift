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
