/// Division rounding towards minus infinity, for calendar arithmetic on days before 1970.
extension Int {
  package func floorDiv(_ divisor: Int) -> Int {
    let quotient = self / divisor
    return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
  }

  package func floorMod(_ divisor: Int) -> Int { self - floorDiv(divisor) * divisor }
}
