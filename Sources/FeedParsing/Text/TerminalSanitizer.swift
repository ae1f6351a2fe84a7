/// Makes untrusted text safe to print on a terminal.
///
/// Removes escape sequences (CSI `ESC [ … final`, OSC `ESC ] … BEL/ST`, DCS/SOS/PM/APC strings and
/// two-character escapes), C0 and C1 control characters and DEL, and the Unicode bidirectional
/// overrides that can make text read differently from what it is. Tabs and line breaks (also
/// U+2028 and U+2029) become spaces unless `keepNewlines` is set.
public enum TerminalSanitizer {
  /// `text` without anything that a terminal would interpret.
  public static func clean(_ text: String, keepNewlines: Bool = false) -> String {
    // Printable ASCII and line breaks, most text: nothing to remove, line breaks to replace.
    if text.isPrintableASCII(allowingNewlines: true) {
      guard !keepNewlines, text.containsByte(0x0A) else { return text }
      return String(decoding: text.utf8.map { $0 == 0x0A ? 0x20 : $0 }, as: UTF8.self)
    }
    var out = String.UnicodeScalarView()
    var scalars = text.unicodeScalars.makeIterator()
    var pending: Unicode.Scalar? = nil
    func next() -> Unicode.Scalar? {
      if let scalar = pending {
        pending = nil
        return scalar
      }
      return scalars.next()
    }
    while let scalar = next() {
      switch scalar.value {
      case 0x1B:
        skipEscape(after: &scalars, pending: &pending)
      case 0x9B:  // C1 CSI
        skipCSI(&scalars)
      case 0x9D, 0x90, 0x98, 0x9E, 0x9F:  // C1 OSC, DCS, SOS, PM, APC
        skipString(&scalars)
      case 0x0A, 0x2028, 0x2029:
        // Line and paragraph separators break lines as \n does.
        out.append(keepNewlines ? "\n" : " ")
      case 0x09:
        out.append(" ")
      case 0x0D:
        // A carriage return could overwrite what was printed; \r\n becomes one line break.
        continue
      case 0x00..<0x20, 0x7F, 0x80..<0xA0:
        continue
      case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C:
        continue
      default:
        out.append(scalar)
      }
    }
    return String(out)
  }

  private static func skipEscape(
    after scalars: inout String.UnicodeScalarView.Iterator, pending: inout Unicode.Scalar?
  ) {
    guard let kind = scalars.next() else { return }
    switch kind {
    case "[": skipCSI(&scalars)
    case "]", "P", "X", "^", "_": skipString(&scalars)
    case " "..."/":
      // nF escape: intermediates then one final byte.
      while let scalar = scalars.next(), (0x20...0x2F).contains(scalar.value) {}
    default:
      // Two-character escape (ESC 7, ESC c, …); an ESC before a non-printable is just dropped.
      if kind.value < 0x20 || kind.value > 0x7E { pending = kind }
    }
  }

  private static func skipCSI(_ scalars: inout String.UnicodeScalarView.Iterator) {
    // Parameters and intermediates (0x20–0x3F) until a final byte (0x40–0x7E).
    while let scalar = scalars.next() {
      if (0x40...0x7E).contains(scalar.value) || !(0x20...0x3F).contains(scalar.value) { return }
    }
  }

  private static func skipString(_ scalars: inout String.UnicodeScalarView.Iterator) {
    // Up to BEL, ST (ESC \) or C1 ST.
    var previousWasEscape = false
    while let scalar = scalars.next() {
      if scalar.value == 0x07 || scalar.value == 0x9C { return }
      if previousWasEscape && scalar == "\\" { return }
      previousWasEscape = scalar.value == 0x1B
    }
  }
}
