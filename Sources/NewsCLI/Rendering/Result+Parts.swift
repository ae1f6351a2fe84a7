extension Result {
  /// The value, when it succeeded (a failure is reported where it is read, not here).
  var success: Success? {
    if case .success(let value) = self { value } else { nil }
  }

  /// The error, when it failed.
  var failure: Failure? {
    if case .failure(let error) = self { error } else { nil }
  }
}
