import Foundation

/// Damage as a disk or a careless edit makes it: the byte in the middle of the file at `url`
/// flipped (a sealed store file then fails its authentication).
public func flipMiddleByte(of url: URL) throws {
  var bytes = [UInt8](try Data(contentsOf: url))
  bytes[bytes.count / 2] ^= 0xff
  try Data(bytes).write(to: url)
}

/// Flips the last byte (a tag's) of the records of a bundle of separately sealed records (the
/// feed cache's `feeds-<n>.enc`: "NEWB", a version, a 4-byte count, then each record after its
/// 4-byte length) whose index `damaged` picks (`nil`: every one), so that each, read alone, fails.
public func damageRecords(of url: URL, where damaged: ((Int) -> Bool)? = nil) throws {
  var bytes = [UInt8](try Data(contentsOf: url))
  func number(at offset: Int) -> Int {
    (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
  }
  var offset = 9
  for index in 0..<number(at: 5) {
    let length = number(at: offset)
    offset += 4 + length
    if damaged?(index) ?? true { bytes[offset - 1] ^= 0xff }
  }
  try Data(bytes).write(to: url)
}

/// ``damageRecords(of:where:)`` of every bundle of the feed cache in `directory` (by default its
/// entries, not its directory, the last record); their names.
public func damageFeedCacheBundles(
  in directory: URL, where damaged: ((Int) -> Bool)? = nil
) throws -> [String] {
  let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    .filter { $0.hasPrefix("feeds-") && $0.hasSuffix(".enc") }
  for name in names {
    let url = directory.appendingPathComponent(name)
    let count = try recordCount(of: url)
    try damageRecords(of: url, where: damaged ?? { $0 < count - 1 })
  }
  return names
}

/// How many records the bundle at `url` holds.
public func recordCount(of url: URL) throws -> Int {
  let bytes = [UInt8](try Data(contentsOf: url))
  return (0..<4).reduce(0) { $0 | Int(bytes[5 + $1]) << (8 * $1) }
}
