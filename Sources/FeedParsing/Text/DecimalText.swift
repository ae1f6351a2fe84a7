import Foundation

/// Numbers with one decimal, as `String(format: "%.1f", value)` writes them, without
/// Foundation's formatter: it was a tenth of `news sources` at 10,000 sources.
public enum DecimalText {
  /// `value` rounded to tenths as printf rounds them: the exact binary value to the nearest
  /// tenth, a tie to the even one (`2.25` is `2.2`; `2.35`, a little over in binary, is `2.4`).
  /// Values that are not finite, negative or from 10¹⁴ on go through the formatter.
  public static func oneDecimal(_ value: Double) -> String {
    guard value.isFinite, value >= 0, value < 1e14 else { return String(format: "%.1f", value) }
    // value × 10 exactly: the rounded product, and what the rounding left out (exact, by a
    // fused multiply-add).
    let product = value * 10
    let error = (-product).addingProduct(value, 10)
    var tenths = product.rounded(.down)
    // Where the exact product lies against the half between two tenths: the difference to the
    // half is exact (the two are close), and a sum of two doubles keeps the sign of the exact
    // sum.
    let past = (product - (tenths + 0.5)) + error
    if past > 0 || (past == 0 && !Int(tenths).isMultiple(of: 2)) { tenths += 1 }
    let whole = Int(tenths)
    return "\(whole / 10).\(whole % 10)"
  }
}
