import Foundation

/// Damage as a disk or a careless edit makes it: the byte in the middle of the file at `url`
/// flipped (a sealed store file then fails its authentication).
public func flipMiddleByte(of url: URL) throws {
  var bytes = [UInt8](try Data(contentsOf: url))
  bytes[bytes.count / 2] ^= 0xff
  try Data(bytes).write(to: url)
}
