import NewsCore

/// The ``PatternBudget`` of browse's filter, held by the state: bookkeeping of the run rather
/// than part of the state's value, so two states are equal whatever their budgets.
struct FilterBudget: Equatable {
  let budget = PatternBudget()

  static func == (lhs: FilterBudget, rhs: FilterBudget) -> Bool { true }
}
