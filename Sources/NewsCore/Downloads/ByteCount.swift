import Foundation

/// Sizes as people read them.
public enum ByteCount {
  /// Bytes as `812 KB`, `48.2 MB`, `1.3 GB` (powers of 1000, as file managers show them).
  public static func text(_ bytes: Int64) -> String {
    let units = ["bytes", "KB", "MB", "GB", "TB"]
    var value = Double(bytes)
    var unit = 0
    while value >= 1000, unit < units.count - 1 {
      value /= 1000
      unit += 1
    }
    guard unit > 0 else { return "\(bytes) bytes" }
    return String(format: value < 10 ? "%.1f" : "%.0f", value) + " " + units[unit]
  }

  /// A limit as it was most likely written: `4 GiB`, `500 MiB`, else bytes.
  public static func limit(_ bytes: Int64) -> String {
    for (shift, unit) in [(40, "TiB"), (30, "GiB"), (20, "MiB"), (10, "KiB")]
    where bytes >= Int64(1) << shift && bytes % (Int64(1) << shift) == 0 {
      return "\(bytes >> shift) \(unit)"
    }
    return "\(bytes) bytes"
  }
}
