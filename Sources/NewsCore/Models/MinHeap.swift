/// A binary min-heap of values by key, the smallest key first (equal keys in no set order):
/// the hosts waiting for a slot by their first waiter's arrival (``ConcurrencyLimiter``), the
/// waits of the process's timer by their end (``LimitTimer``).
struct MinHeap<Key: Comparable, Value> {
  private var entries: [(key: Key, value: Value)] = []

  /// The entry of the smallest key.
  var first: (key: Key, value: Value)? { entries.first }

  /// How many entries there are.
  var count: Int { entries.count }

  mutating func push(_ key: Key, _ value: Value) {
    entries.append((key, value))
    var child = entries.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard entries[child].key < entries[parent].key else { break }
      entries.swapAt(child, parent)
      child = parent
    }
  }

  /// Takes the entry of the smallest key out.
  @discardableResult
  mutating func pop() -> (key: Key, value: Value)? {
    guard !entries.isEmpty else { return nil }
    entries.swapAt(0, entries.count - 1)
    let top = entries.removeLast()
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < entries.count, entries[left].key < entries[smallest].key { smallest = left }
      if right < entries.count, entries[right].key < entries[smallest].key { smallest = right }
      guard smallest != parent else { break }
      entries.swapAt(parent, smallest)
      parent = smallest
    }
    return top
  }
}
