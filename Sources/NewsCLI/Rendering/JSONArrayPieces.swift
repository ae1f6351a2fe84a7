import NewsCore

/// A pretty JSON document whose one long array (a feed's items, the sources) is written a piece
/// at a time: the head, the array's objects as they come (each written straight into the bytes,
/// indented as `JSONValue.serialized(prettyAt: 2)` would indent it), the bracket that closes it,
/// the rest.
/// Whoever writes takes the text gathered so far when it likes (``take()``): 10,000 values are
/// never one tree nor one string.
struct JSONArrayPieces {
  /// What is gathered and not taken yet.
  private(set) var bytes: [UInt8]
  /// Whether no value was appended yet.
  private(set) var isEmpty = true

  /// Starts with `head`, which ends with the array's `[`.
  init(head: String) {
    bytes = Array(head.utf8)
  }

  /// Appends to the array the object `build` writes, straight into the bytes.
  mutating func appendObject(_ build: (inout JSONObjectWriter) -> Void) {
    bytes.append(contentsOf: (isEmpty ? "\n    " : ",\n    ").utf8)
    JSONObjectWriter.write(prettyAt: 2, to: &bytes, build)
    isEmpty = false
  }

  /// Closes the array, then appends `tail`.
  mutating func close(then tail: String) {
    bytes.append(contentsOf: ((isEmpty ? "]" : "\n  ]") + tail).utf8)
  }

  /// The text gathered since the last take.
  mutating func take() -> String {
    defer { bytes.removeAll(keepingCapacity: true) }
    return String(decoding: bytes, as: UTF8.self)
  }
}
