extension Int {
  /// The number and the noun, plural unless it is one: `3 feeds`, `1 feed`, `2 entries`.
  package func counted(_ noun: String, plural: String? = nil) -> String {
    "\(self) " + (self == 1 ? noun : plural ?? noun + "s")
  }
}
