/// A duration as the query language writes one (`age<7d`) and `feed --since` takes one: a
/// number and `m`inutes, `h`ours, `d`ays or `w`eeks (`7d`, `12h`, `1.5h`).
public enum AgeDuration {
  /// The seconds `text` says, or `nil` when it is no such duration: digits with at most one
  /// decimal point and a unit, so not `0x10d`, `1e3h`, `+7d` or `infd`.
  public static func seconds(_ text: some StringProtocol) -> Double? {
    let units: [Character: Double] = ["m": 60, "h": 3_600, "d": 86_400, "w": 604_800]
    let number = text.dropLast()
    guard let unit = text.last, let seconds = units[unit], !number.isEmpty,
      number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
      number.filter({ $0 == "." }).count <= 1, number.first != ".", number.last != ".",
      let amount = Double(String(number)), amount.isFinite
    else { return nil }
    return amount * seconds
  }
}
