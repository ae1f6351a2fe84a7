import Foundation

/// Adds and removes entries of `config.json`'s `sources` list by editing the text, so that
/// everything else stays as the user wrote it: key order, spacing, other sources, unknown keys.
///
/// The file was decoded (and checked) at start-up; the editor only needs to find where the
/// `sources` list and its objects begin and end, skipping strings and nested values.
struct ConfigFileEditor {
  /// The file's text, as UTF-8 bytes.
  private(set) var bytes: [UInt8]

  /// An editor of `data` (`nil` or empty: no file yet).
  init(_ data: Data?) {
    bytes = [UInt8](data ?? Data())
  }

  /// Why the text could not be edited.
  struct Failure: Error, Equatable {
    var detail: String
  }

  /// Appends `entry` (a JSON object's text) to the top-level list `list` (`sources`, or
  /// `ignore`), creating the list or the file.
  mutating func append(_ entry: String, to list: String = "sources") throws(Failure) {
    guard let root = try rootObject() else {
      bytes = Array("{\n  \"\(list)\": [\n    \(entry)\n  ]\n}\n".utf8)
      return
    }
    guard let sources = try member(list, of: root) else {
      let inner = skipSpace(root.lowerBound + 1)
      let isEmpty = bytes[inner] == UInt8(ascii: "}")
      let text = "\n  \"\(list)\": [\n    \(entry)\n  ]" + (isEmpty ? "\n" : ",")
      bytes.replaceSubrange(
        (root.lowerBound + 1)..<(isEmpty ? inner : root.lowerBound + 1), with: Array(text.utf8))
      return
    }
    let elements = try self.elements(of: sources)
    guard let last = elements.last else {
      let indent = indentation(at: sources.lowerBound)
      let text = "[\n\(indent)  \(entry)\n\(indent)]"
      bytes.replaceSubrange(sources, with: Array(text.utf8))
      return
    }
    // The new entry is spaced like the last one: on its own line when that one is.
    let before =
      elements.count > 1 ? elements[elements.count - 2].upperBound : sources.lowerBound + 1
    var gap = Array(bytes[before..<last.lowerBound])
    if gap.first == UInt8(ascii: ",") { gap.removeFirst() }
    bytes.insert(contentsOf: [UInt8(ascii: ",")] + gap + Array(entry.utf8), at: last.upperBound)
  }

  /// Appends every entry, as ``append(_:)`` would one by one, but reading the file once: linear
  /// in the file and the entries (an import of 100,000 feeds).
  mutating func append(contentsOf entries: [String]) throws(Failure) {
    guard let first = entries.first else { return }
    try append(first)
    guard entries.count > 1, let root = try rootObject(),
      let sources = try member("sources", of: root)
    else { return }
    let elements = try self.elements(of: sources)
    guard let last = elements.last else { return }
    let before =
      elements.count > 1 ? elements[elements.count - 2].upperBound : sources.lowerBound + 1
    var gap = Array(bytes[before..<last.lowerBound])
    if gap.first == UInt8(ascii: ",") { gap.removeFirst() }
    var added: [UInt8] = []
    for entry in entries.dropFirst() {
      added.append(UInt8(ascii: ","))
      added += gap
      added += Array(entry.utf8)
    }
    bytes.insert(contentsOf: added, at: last.upperBound)
  }

  /// The `name` of each entry of `sources`, in order (`nil` where an entry has none).
  func names() throws(Failure) -> [String?] {
    guard let root = try rootObject(), let sources = try member("sources", of: root) else {
      return []
    }
    return try elements(of: sources).map { range in
      (try? ConfigNode.parse(Data(bytes[range]), file: ""))?["name"]?.text
    }
  }

  /// Removes the entry of `sources` named `name`; returns whether there was one.
  mutating func remove(named name: String) throws(Failure) -> Bool {
    guard let index = try names().firstIndex(of: name) else { return false }
    return try remove(at: index, from: "sources")
  }

  /// Removes element `index` of the top-level list `list`; returns whether there was one.
  mutating func remove(at index: Int, from list: String) throws(Failure) -> Bool {
    guard let root = try rootObject(), let sources = try member(list, of: root) else {
      return false
    }
    let elements = try self.elements(of: sources)
    guard elements.indices.contains(index) else { return false }
    let range: Range<Int>
    if index > 0 {
      range = elements[index - 1].upperBound..<elements[index].upperBound
    } else if elements.count > 1 {
      range = elements[0].lowerBound..<elements[1].lowerBound
    } else {
      range = (sources.lowerBound + 1)..<(sources.upperBound - 1)
    }
    bytes.removeSubrange(range)
    return true
  }

  /// Sets `members` (key and JSON value text; a `nil` value removes the key) in the entry of
  /// `sources` named `name`: a key already there has its value replaced in place, a new one is
  /// added before the object's closing brace. Returns whether there was such an entry.
  mutating func set(_ members: [(key: String, value: String?)], inEntryNamed name: String)
    throws(Failure) -> Bool
  {
    for (key, value) in members {
      guard let root = try rootObject(), let sources = try member("sources", of: root),
        let index = try names().firstIndex(of: name)
      else { return false }
      let entry = try elements(of: sources)[index]
      if let span = try memberSpan(key, of: entry) {
        if let value {
          bytes.replaceSubrange(span.value, with: Array(value.utf8))
        } else {
          removeMember(keyStart: span.key, valueEnd: span.value.upperBound, of: entry)
        }
      } else if let value {
        let keyText = "\"\(key)\": \(value)"
        // The last byte before the closing brace that is not blank.
        let last = skipSpaceBackwards(entry.upperBound - 2)
        let empty = bytes[last] == UInt8(ascii: "{")
        bytes.insert(contentsOf: Array(((empty ? "" : ", ") + keyText).utf8), at: last + 1)
      }
    }
    return true
  }

  /// Adds `key` with `value` (JSON text) to the top-level object `name` (`hooks`), making the
  /// object (or the file) when missing. A key there already is left as it is: `false`.
  mutating func add(_ key: String, value: String, toObject name: String) throws(Failure) -> Bool {
    try add(key, value: value, at: [name])
  }

  /// Adds `key` with `value` (JSON text) to the object at `path` (`["keys", "list"]`), making
  /// the objects on the way (and the file) when missing. A key there already is left as it is:
  /// `false`.
  mutating func add(_ key: String, value: String, at path: [String]) throws(Failure) -> Bool {
    if try rootObject() == nil { bytes = Array("{\n}\n".utf8) }
    guard var object = try rootObject() else { return false }
    for (depth, name) in path.enumerated() {
      guard let inner = try member(name, of: object) else {
        insert(member: JSONValue.string(name).serialized() + ": {}", into: object, top: depth == 0)
        return try add(key, value: value, at: path)
      }
      guard bytes[inner.lowerBound] == UInt8(ascii: "{") else {
        throw Failure(
          detail: "\"\(path.prefix(depth + 1).joined(separator: "."))\" is not an object")
      }
      object = inner
    }
    guard try memberSpan(key, of: object) == nil else { return false }
    insert(
      member: JSONValue.string(key).serialized() + ": " + value, into: object, top: path.isEmpty)
    return true
  }

  /// Inserts `member` (`"key": value`) into `object`: first and on a line of its own at the top
  /// level (where sections are), last and on the same line inside.
  private mutating func insert(member: String, into object: Range<Int>, top: Bool) {
    if top {
      let inner = skipSpace(object.lowerBound + 1)
      let isEmpty = bytes[inner] == UInt8(ascii: "}")
      let text = "\n  " + member + (isEmpty ? "\n" : ",")
      bytes.replaceSubrange(
        (object.lowerBound + 1)..<(isEmpty ? inner : object.lowerBound + 1), with: Array(text.utf8))
      return
    }
    let last = skipSpaceBackwards(object.upperBound - 2)
    let empty = bytes[last] == UInt8(ascii: "{")
    bytes.insert(contentsOf: Array(((empty ? "" : ", ") + member).utf8), at: last + 1)
  }

  /// Removes the member of `object` whose key starts at `keyStart` and whose value ends at
  /// `valueEnd`, with the comma that separates it from the next (or the previous) one.
  private mutating func removeMember(keyStart: Int, valueEnd: Int, of object: Range<Int>) {
    var start = keyStart
    var end = valueEnd
    let after = skipSpace(end)
    if after < object.upperBound, bytes[after] == UInt8(ascii: ",") {
      end = skipSpace(after + 1)
    } else {
      let before = skipSpaceBackwards(start - 1)
      if bytes[before] == UInt8(ascii: ",") { start = before }
    }
    bytes.removeSubrange(start..<end)
  }

  private func skipSpaceBackwards(_ start: Int) -> Int {
    var index = start
    while index > 0, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index -= 1 }
    return index
  }

  // MARK: Scanning

  /// The range of the top-level object, or `nil` when the text is blank.
  private func rootObject() throws(Failure) -> Range<Int>? {
    // JSON in UTF-16 or UTF-32 decodes (Foundation reads it), but its bytes are not the text
    // this editor scans; a NUL byte is never in UTF-8 JSON.
    guard !bytes.contains(0) else {
      throw Failure(detail: "the file is not UTF-8 text (save it as UTF-8 for news to edit it)")
    }
    let start = skipSpace(bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0)
    guard start < bytes.count else { return nil }
    guard bytes[start] == UInt8(ascii: "{") else {
      throw Failure(detail: "the file is not a JSON object")
    }
    return start..<(try valueEnd(start))
  }

  /// The range of the value of `key` in `object`.
  private func member(_ key: String, of object: Range<Int>) throws(Failure) -> Range<Int>? {
    try memberSpan(key, of: object)?.value
  }

  /// Where the member `key` of `object` starts (its key's quote) and its value's range. A key
  /// said twice is the last one, as the reader takes it (`ConfigNode`): an edit changes what
  /// is read.
  private func memberSpan(_ key: String, of object: Range<Int>) throws(Failure) -> (
    key: Int, value: Range<Int>
  )? {
    var found: (key: Int, value: Range<Int>)?
    var index = skipSpace(object.lowerBound + 1)
    while index < object.upperBound, bytes[index] == UInt8(ascii: "\"") {
      let keyStart = index
      let keyEnd = try valueEnd(index)
      let name = (try? ConfigNode.parse(Data(bytes[index..<keyEnd]), file: ""))?.text
      index = skipSpace(keyEnd)
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { break }
      let valueStart = skipSpace(index + 1)
      let end = try valueEnd(valueStart)
      if name == key { found = (keyStart, valueStart..<end) }
      index = skipSpace(end)
      if index < bytes.count, bytes[index] == UInt8(ascii: ",") { index = skipSpace(index + 1) }
    }
    return found
  }

  /// The ranges of the elements of the array at `array`.
  private func elements(of array: Range<Int>) throws(Failure) -> [Range<Int>] {
    guard bytes[array.lowerBound] == UInt8(ascii: "[") else {
      throw Failure(detail: "\"sources\" is not a list")
    }
    var ranges: [Range<Int>] = []
    var index = skipSpace(array.lowerBound + 1)
    while index < array.upperBound - 1 {
      let end = try valueEnd(index)
      ranges.append(index..<end)
      index = skipSpace(end)
      if index < bytes.count, bytes[index] == UInt8(ascii: ",") { index = skipSpace(index + 1) }
    }
    return ranges
  }

  /// Where the value starting at `start` ends (one past its last byte).
  private func valueEnd(_ start: Int) throws(Failure) -> Int {
    guard start < bytes.count else { throw Failure(detail: "the file ends too early") }
    var index = start
    var depth = 0
    repeat {
      guard index < bytes.count else { throw Failure(detail: "the file ends too early") }
      switch bytes[index] {
      case UInt8(ascii: "\""):
        index += 1
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
          index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        index += 1
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
        index += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
        index += 1
      default:
        guard depth > 0 else {
          // A number or a literal: up to the next delimiter.
          while index < bytes.count,
            ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09]
              .contains(bytes[index])
          {
            index += 1
          }
          return index
        }
        index += 1
      }
    } while depth > 0
    return min(index, bytes.count)
  }

  private func skipSpace(_ start: Int) -> Int {
    var index = start
    while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    return index
  }

  /// The spaces or tabs before the first non-blank of the line holding `position`.
  private func indentation(at position: Int) -> String {
    var start = position
    while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
    var end = start
    while end < position, bytes[end] == 0x20 || bytes[end] == 0x09 { end += 1 }
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }
}
