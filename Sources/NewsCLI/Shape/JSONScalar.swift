import Foundation

/// Strict readings of `JSONSerialization`'s values: a JSON `true` is not the number 1, nor 1 a
/// boolean (Foundation hands both out as numbers; a boolean's type is `c`).
enum JSONScalar {
  /// The boolean, only when the JSON held `true` or `false`.
  static func bool(_ value: Any) -> Bool? {
    guard let number = value as? NSNumber, isBoolean(number) else { return nil }
    return number.boolValue
  }

  /// The whole number, only when the JSON held one (not a boolean, not 1.5).
  static func int(_ value: Any) -> Int? {
    guard let number = value as? NSNumber, !isBoolean(number) else { return nil }
    let double = number.doubleValue
    guard double == double.rounded(), abs(double) < 1e15 else { return nil }
    return number.intValue
  }

  private static func isBoolean(_ number: NSNumber) -> Bool {
    String(cString: number.objCType) == "c"
  }
}
