import Foundation

extension Duration {
  /// The duration in seconds, as a floating-point number.
  var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}

extension Duration {
  /// Whole seconds as `30`, others to the millisecond as `2.5` or `0.25`.
  var secondsText: String {
    guard seconds != seconds.rounded() else { return String(Int(seconds)) }
    // To the millisecond, as the limits are kept: 0.25, not 0.2.
    var text = String(format: "%.3f", seconds)
    while text.hasSuffix("0") { text.removeLast() }
    return text
  }
}
