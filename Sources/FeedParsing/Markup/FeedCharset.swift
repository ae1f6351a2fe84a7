import Foundation

/// Turns a feed's bytes into text, choosing the charset the way browsers do: a byte-order mark,
/// then the HTTP `Content-Type` charset, then the XML declaration (or the bytes of `<?xml` in
/// UTF-16/32 without a mark), then UTF-8 when the bytes are valid UTF-8, else Windows-1252.
///
/// ISO-8859-1 and US-ASCII are read as Windows-1252, as the web does (so `0x92` is `’`, not an
/// invisible control character). A label the toolchain cannot decode, or bytes its charset cannot
/// hold, fall back to UTF-8 or Windows-1252: a feed is never refused for its charset, and a
/// document labelled as a single-byte charset that is in fact valid UTF-8 is read as UTF-8 (the
/// usual mislabelling). Decodes: UTF-8/16/32 (either byte order), the ISO-8859 family,
/// Windows-1250 to 1258, KOI8-R/U, Shift_JIS, EUC-JP, ISO-2022-JP, GB2312/GBK/GB18030 (as GB18030,
/// their superset), Big5 (HKSCS as Big5), EUC-KR, the DOS code pages (437, 737, 775, 850, 852,
/// 855, 857, 860–866, 874), Mac Roman, Cyrillic, Greek, Central European and Turkish, and EBCDIC
/// (037), under the names and aliases Python's codecs know. Anything else (UTF-7, HZ, Mac
/// Icelandic…) falls back as above.
package enum FeedCharset {
  /// The text of `bytes`, given the HTTP `Content-Type` charset if there was one.
  package static func decode(_ bytes: Data, httpCharset: String? = nil) -> String {
    if let (bom, encoding) = byteOrderMark(bytes) {
      return String(data: bytes.dropFirst(bom), encoding: encoding)
        ?? fallback(bytes.dropFirst(bom))
    }
    if let sniffed = sniffedUnicode(bytes),
      let text = String(data: bytes, encoding: sniffed)
    {
      return text
    }
    let label = httpCharset.flatMap(normalized) ?? declaredCharset(bytes).flatMap(normalized)
    guard let label else { return fallback(bytes) }
    switch label {
    case "utf-8":
      // Declared UTF-8 that holds UTF-8 stays UTF-8: a bad byte is U+FFFD, not a reason to
      // read every other character as Windows-1252 ("CafÃ©"). Only where no character beyond
      // ASCII is UTF-8 is the label wrong (a Windows-1252 document, as feedparser reads it).
      if String(validating: bytes, as: UTF8.self) == nil, holdsUTF8(bytes) {
        return mappingC1(String(decoding: bytes, as: UTF8.self))
      }
      return fallback(bytes)
    case "windows-1252":
      // Valid UTF-8 with something beyond ASCII is a mislabelled UTF-8 document.
      if bytes.contains(where: { $0 >= 0x80 }), let text = String(data: bytes, encoding: .utf8) {
        return mappingC1(text)
      }
      return windows1252(bytes)
    case "euc-jp":
      return eucJP(bytes) ?? fallback(bytes)
    case "utf-16", "utf-32", "utf-16le", "utf-16be", "utf-32le", "utf-32be":
      // Declared, but without a mark and without the zero bytes: the declaration is wrong.
      return fallback(bytes)
    default:
      guard let encoding = encodings[label], let text = String(data: bytes, encoding: encoding)
      else { return fallback(bytes) }
      return text
    }
  }

  /// The `charset` parameter of a `Content-Type` header value, if any.
  package static func charset(ofContentType value: String?) -> String? {
    guard let value else { return nil }
    for parameter in value.split(separator: ";").dropFirst() {
      let pair = parameter.split(separator: "=", maxSplits: 1)
      guard pair.count == 2,
        pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset"
      else { continue }
      let charset = pair[1].trimmingCharacters(in: .whitespaces)
        .trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
      return charset.isEmpty ? nil : charset
    }
    return nil
  }

  /// UTF-8 when the bytes are valid UTF-8, else Windows-1252 (which decodes any byte).
  /// Whether `bytes` hold at least one well-formed UTF-8 sequence of two bytes or more.
  static func holdsUTF8(_ bytes: Data) -> Bool {
    var iterator = bytes.makeIterator()
    while let byte = iterator.next() {
      let continuations: Int
      switch byte {
      case 0xC2...0xDF: continuations = 1
      case 0xE0...0xEF: continuations = 2
      case 0xF0...0xF4: continuations = 3
      default: continue
      }
      var valid = true
      for _ in 0..<continuations {
        guard let next = iterator.next(), next & 0xC0 == 0x80 else {
          valid = false
          break
        }
      }
      if valid { return true }
    }
    return false
  }

  private static func fallback(_ bytes: Data) -> String {
    // Validated by the standard library: a native string, fast to read again.
    String(validating: bytes, as: UTF8.self).map(mappingC1) ?? windows1252(bytes)
  }

  /// `text` with its C1 control characters (U+0080 to U+009F, which no one writes on purpose)
  /// made what Windows-1252 puts there, as browsers and feedparser read them: a feed whose
  /// `’` was encoded from Windows-1252 bytes as if they were Latin-1 reads `’`, not an invisible
  /// control. Text without any (most: checked on its UTF-8 bytes, `C2 80` to `C2 9F`) is
  /// returned as it is.
  package static func mappingC1(_ text: String) -> String {
    var text = text
    // On the contiguous bytes: a feed or a page of 500 KB is scanned in well under a millisecond.
    let found = text.withUTF8 { bytes in
      var index = 0
      while index + 1 < bytes.count {
        if bytes[index] == 0xC2, bytes[index + 1] >= 0x80, bytes[index + 1] <= 0x9F { return true }
        index += 1
      }
      return false
    }
    guard found else { return text }
    var scalars = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if (0x80...0x9F).contains(scalar.value) {
        scalars.append(windows1252(UInt8(scalar.value)))
      } else {
        scalars.append(scalar)
      }
    }
    return String(scalars)
  }

  private static func byteOrderMark(_ bytes: Data) -> (Int, String.Encoding)? {
    let head = Array(bytes.prefix(4))
    if head.starts(with: [0xEF, 0xBB, 0xBF]) { return (3, .utf8) }
    if head.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return (4, .utf32BigEndian) }
    if head.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return (4, .utf32LittleEndian) }
    if head.starts(with: [0xFE, 0xFF]) { return (2, .utf16BigEndian) }
    if head.starts(with: [0xFF, 0xFE]) { return (2, .utf16LittleEndian) }
    return nil
  }

  /// UTF-16/32 without a mark, recognised by how `<` (or `<?`) is spelled in the first bytes.
  private static func sniffedUnicode(_ bytes: Data) -> String.Encoding? {
    let head = Array(bytes.prefix(4))
    guard head.count == 4 else { return nil }
    switch (head[0], head[1], head[2], head[3]) {
    case (0x00, 0x00, 0x00, 0x3C): return .utf32BigEndian
    case (0x3C, 0x00, 0x00, 0x00): return .utf32LittleEndian
    case (0x00, 0x3C, 0x00, _): return .utf16BigEndian
    case (0x3C, 0x00, _, 0x00): return .utf16LittleEndian
    case (0x4C, 0x6F, 0xA7, 0x94): return encodings["cp037"]  // `<?xm` in EBCDIC
    default: return nil
    }
  }

  /// The `encoding` of the XML declaration, as written.
  private static func declaredCharset(_ bytes: Data) -> String? {
    let head = String(decoding: bytes.prefix(256), as: UTF8.self)
    let trimmed = head.drop { $0.isWhitespace }
    guard trimmed.hasPrefix("<?xml"), let end = trimmed.range(of: "?>") else { return nil }
    let declaration = trimmed[..<end.lowerBound]
    guard let key = declaration.range(of: "encoding") else { return nil }
    let rest = declaration[key.upperBound...].drop { $0 == " " || $0 == "=" }
    guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
    let name = rest.dropFirst().prefix { $0 != quote }
    return name.isEmpty ? nil : String(name)
  }

  /// A charset label in the form the table below knows, or `nil` when it is not one.
  package static func normalized(_ label: String) -> String? {
    var name = label.trimmingCharacters(in: .whitespaces).lowercased()
      .replacingOccurrences(of: "_", with: "-")
    if name.hasPrefix("iso8859-") { name = "iso-8859-" + name.dropFirst(8) }
    if name.hasPrefix("cp125") { name = "windows-" + name.dropFirst(2) }
    if let alias = aliases[name] { return alias }
    return name == "utf-8" || name == "windows-1252" || encodings[name] != nil ? name : nil
  }

  private static let aliases: [String: String] = [
    "utf8": "utf-8", "unicode-1-1-utf-8": "utf-8", "x-unicode20utf8": "utf-8",
    "iso-8859-1": "windows-1252", "latin1": "windows-1252", "latin-1": "windows-1252",
    "l1": "windows-1252", "iso-ir-100": "windows-1252", "cp819": "windows-1252",
    "ibm819": "windows-1252", "iso-8859-1:1987": "windows-1252", "iso8859-1": "windows-1252",
    "us-ascii": "windows-1252", "ascii": "windows-1252", "ansi-x3.4-1968": "windows-1252",
    "x-cp1252": "windows-1252", "cp1252": "windows-1252", "ms-ansi": "windows-1252",
    "utf-16le": "utf-16le", "utf-16be": "utf-16be", "ucs-2": "utf-16", "utf16": "utf-16",
    "utf-16": "utf-16", "utf-32": "utf-32", "utf32": "utf-32", "ucs-4": "utf-32",
    "latin2": "iso-8859-2", "latin-2": "iso-8859-2", "latin9": "iso-8859-15",
    "sjis": "shift-jis", "x-sjis": "shift-jis", "ms-kanji": "shift-jis", "csshiftjis": "shift-jis",
    "cp932": "windows-31j", "ms932": "windows-31j",
    "x-euc-jp": "euc-jp", "eucjp": "euc-jp", "gb2312": "gb18030", "gbk": "gb18030",
    "x-gbk": "gb18030", "cp936": "gb18030", "euc-cn": "gb18030", "chinese": "gb18030",
    "csgb2312": "gb18030", "big5-hkscs": "big5", "cp950": "big5", "x-x-big5": "big5",
    "cn-big5": "big5", "big5hkscs": "big5", "ks-c-5601-1987": "euc-kr", "cp949": "euc-kr",
    "korean": "euc-kr",
    "windows-949": "euc-kr", "uhc": "euc-kr", "mac": "macintosh", "mac-roman": "macintosh",
    "x-mac-roman": "macintosh", "macroman": "macintosh", "cyrillic": "iso-8859-5",
    "greek": "iso-8859-7", "hebrew": "iso-8859-8", "arabic": "iso-8859-6",
    "tis-620": "iso-8859-11", "windows-874": "cp874",
    "latin3": "iso-8859-3", "l3": "iso-8859-3", "latin4": "iso-8859-4", "l4": "iso-8859-4",
    "latin5": "iso-8859-9", "l5": "iso-8859-9", "latin6": "iso-8859-10", "l6": "iso-8859-10",
    "latin7": "iso-8859-13", "l7": "iso-8859-13", "latin8": "iso-8859-14", "l8": "iso-8859-14",
    "l9": "iso-8859-15", "latin10": "iso-8859-16", "l10": "iso-8859-16", "l2": "iso-8859-2",
    "greek8": "iso-8859-7", "csisolatin1": "windows-1252", "csisolatin2": "iso-8859-2",
    "csisolatin3": "iso-8859-3", "csisolatin4": "iso-8859-4", "csisolatincyrillic": "iso-8859-5",
    "csisolatinarabic": "iso-8859-6", "csisolatingreek": "iso-8859-7",
    "csisolatinhebrew": "iso-8859-8", "csisolatin5": "iso-8859-9", "csisolatin6": "iso-8859-10",
    "u8": "utf-8", "utf": "utf-8", "u16": "utf-16", "iso-10646-ucs-2": "utf-16",
    "csunicode": "utf-16", "unicode-1-1": "utf-16", "u32": "utf-32", "iso-10646-ucs-4": "utf-32",
    "csucs4": "utf-32", "ujis": "euc-jp", "u-jis": "euc-jp", "csiso2022jp": "iso-2022-jp",
    "gb18030-2000": "gb18030", "cskoi8r": "koi8-r",
    "437": "cp437", "ibm437": "cp437", "cspc8codepage437": "cp437", "ibm737": "cp737",
    "ibm775": "cp775", "cspc775baltic": "cp775", "850": "cp850", "ibm850": "cp850",
    "cspc850multilingual": "cp850", "852": "cp852", "ibm852": "cp852", "cspcp852": "cp852",
    "855": "cp855", "ibm855": "cp855", "csibm855": "cp855", "857": "cp857", "ibm857": "cp857",
    "csibm857": "cp857", "860": "cp860", "ibm860": "cp860", "csibm860": "cp860",
    "861": "cp861", "ibm861": "cp861", "cp-is": "cp861", "csibm861": "cp861",
    "862": "cp862", "ibm862": "cp862", "cspc862latinhebrew": "cp862", "863": "cp863",
    "ibm863": "cp863", "csibm863": "cp863", "864": "cp864", "ibm864": "cp864",
    "csibm864": "cp864", "865": "cp865", "ibm865": "cp865", "csibm865": "cp865",
    "866": "cp866", "ibm866": "cp866", "csibm866": "cp866", "ibm874": "cp874",
    "maccyrillic": "mac-cyrillic", "x-mac-cyrillic": "mac-cyrillic", "macgreek": "mac-greek",
    "x-mac-greek": "mac-greek", "maccentraleurope": "mac-latin2",
    "mac-centraleurope": "mac-latin2", "x-mac-ce": "mac-latin2", "macturkish": "mac-turkish",
    "x-mac-turkish": "mac-turkish", "ibm037": "cp037", "ibm039": "cp037", "037": "cp037",
    "ebcdic-cp-us": "cp037", "ebcdic-cp-ca": "cp037", "ebcdic-cp-wt": "cp037",
    "ebcdic-cp-nl": "cp037", "csibm037": "cp037",
  ]

  /// Labels to the toolchain's encodings. Those without a named `String.Encoding` are given by
  /// their CoreFoundation number (`0x8000_0000 | CFStringEncoding`), which Foundation decodes on
  /// Linux (through ICU) as on macOS.
  private static let encodings: [String: String.Encoding] = {
    func foundation(_ value: UInt32) -> String.Encoding {
      String.Encoding(rawValue: UInt(0x8000_0000 | value))
    }
    var table: [String: String.Encoding] = [
      "utf-16le": .utf16LittleEndian, "utf-16be": .utf16BigEndian,
      "utf-32le": .utf32LittleEndian, "utf-32be": .utf32BigEndian,
      "shift-jis": .shiftJIS, "windows-31j": foundation(0x0420), "euc-jp": .japaneseEUC,
      "iso-2022-jp": .iso2022JP, "gb18030": foundation(0x0632), "big5": foundation(0x0A03),
      "euc-kr": foundation(0x0940),
      "koi8-r": foundation(0x0A02), "koi8-u": foundation(0x0A08), "macintosh": .macOSRoman,
      "mac-cyrillic": foundation(7), "mac-greek": foundation(6), "mac-latin2": foundation(29),
      "mac-turkish": foundation(35), "cp037": foundation(0x0C02), "cp874": foundation(0x041D),
    ]
    // The DOS code pages, in CoreFoundation's numbering.
    let dos: [(String, UInt32)] = [
      ("cp437", 0x0400), ("cp737", 0x0405), ("cp775", 0x0406), ("cp850", 0x0410),
      ("cp852", 0x0412), ("cp855", 0x0413), ("cp857", 0x0414), ("cp860", 0x0415),
      ("cp861", 0x0416), ("cp862", 0x0417), ("cp863", 0x0418), ("cp864", 0x0419),
      ("cp865", 0x041A), ("cp866", 0x041B),
    ]
    for (name, value) in dos { table[name] = foundation(value) }
    for part in 2...16 where part != 12 {
      table["iso-8859-\(part)"] = foundation(0x0200 + UInt32(part))
    }
    // CoreFoundation numbers the Windows code pages 0x0500 (1252), 0x0501 (1250), 0x0502
    // (1251), then 0x0503 to 0x0508 for 1253 to 1258.
    table["windows-1250"] = foundation(0x0501)
    table["windows-1251"] = .windowsCP1251
    for page in 3...8 {
      table["windows-125\(page)"] = foundation(0x0500 + UInt32(page))
    }
    table["windows-1252"] = nil
    return table
  }()

  /// EUC-JP, which Foundation does not decode on Linux: its two-byte JIS X 0208 characters are
  /// ISO-2022-JP's with the high bits set, and half-width katakana (`0x8E`) map directly. JIS X
  /// 0212 (`0x8F`, three bytes) becomes U+FFFD. `nil` when the bytes are not EUC-JP.
  package static func eucJP(_ bytes: Data) -> String? {
    var out = ""
    var pending: [UInt8] = []
    func flush() -> Bool {
      guard !pending.isEmpty else { return true }
      let escaped: [UInt8] = [0x1B, 0x24, 0x42] + pending + [0x1B, 0x28, 0x42]
      guard let text = String(data: Data(escaped), encoding: .iso2022JP) else { return false }
      out += text
      pending.removeAll()
      return true
    }
    let bytes = Array(bytes)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte < 0x80 {
        guard flush() else { return nil }
        out.unicodeScalars.append(Unicode.Scalar(byte))
        index += 1
      } else if byte == 0x8E, index + 1 < bytes.count, (0xA1...0xDF).contains(bytes[index + 1]) {
        guard flush() else { return nil }
        out.unicodeScalars.append(Unicode.Scalar(0xFF61 + UInt32(bytes[index + 1] - 0xA1))!)
        index += 2
      } else if byte == 0x8F, index + 2 < bytes.count {
        guard flush() else { return nil }
        out += "\u{FFFD}"
        index += 3
      } else if (0xA1...0xFE).contains(byte), index + 1 < bytes.count,
        (0xA1...0xFE).contains(bytes[index + 1])
      {
        pending += [byte & 0x7F, bytes[index + 1] & 0x7F]
        index += 2
      } else {
        return nil
      }
    }
    return flush() ? out : nil
  }

  /// Windows-1252, every byte decoded (the five it leaves undefined as the C1 controls they
  /// stand in for, which the terminal sanitizer removes before anything is printed).
  package static func windows1252(_ bytes: Data) -> String {
    var scalars = String.UnicodeScalarView()
    scalars.reserveCapacity(bytes.count)
    for byte in bytes {
      scalars.append(windows1252(byte))
    }
    return String(scalars)
  }

  /// The character Windows-1252 gives `byte`.
  package static func windows1252(_ byte: UInt8) -> Unicode.Scalar {
    guard (0x80...0x9F).contains(byte) else { return Unicode.Scalar(byte) }
    return Unicode.Scalar(c1Replacements[Int(byte - 0x80)]) ?? Unicode.Scalar(byte)
  }

  /// What Windows-1252 puts at 0x80…0x9F (the web reads `&#146;` the same way).
  package static let c1Replacements: [UInt32] = [
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
    0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
  ]
}
