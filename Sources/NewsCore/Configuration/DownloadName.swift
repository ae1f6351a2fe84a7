import Foundation

/// How a downloaded file is named (`NEWS_DOWNLOAD_NAME`): a template of placeholders and
/// literal text, `/` making folders. Each value put in is made safe for every file system
/// (Linux, macOS, Windows, FAT): no separator, control character or character Windows refuses,
/// no leading dot or dash, no trailing dot or space, no reserved device name, at most 200 bytes a
/// folder or file name; a template cannot climb out of the download directory.
public struct DownloadName: Sendable, Equatable {
  /// `{source}/{date} {title}.{ext}`.
  public static let defaultTemplate = "{source}/{date} {title}.{ext}"

  /// The placeholders a template may use.
  public static let placeholders = ["source", "date", "title", "ext", "id", "n"]

  /// What a placeholder stands for.
  public struct Values: Sendable {
    /// The source's name.
    public var source: String
    /// The item's date (`2026-11-25`), or `undated`.
    public var date: String
    /// The item's title.
    public var title: String
    /// The file's extension, without the dot.
    public var ext: String
    /// The item's id.
    public var id: String
    /// Which of the item's files (1 is the first).
    public var n: Int

    func value(of placeholder: String) -> String {
      switch placeholder {
      case "source": source
      case "date": date
      case "title": title
      case "ext": ext
      case "id": id
      default: String(n)
      }
    }
  }

  /// Why a template was refused.
  public struct TemplateError: Error {
    /// What was expected instead, for the message naming the variable.
    public var expected: String
  }

  private enum Part: Equatable {
    case literal(String)
    case placeholder(String)
  }

  private let parts: [Part]
  /// The template as written.
  public let template: String

  /// Parses `template`.
  ///
  /// - Throws: ``TemplateError`` for an unknown placeholder, an unclosed brace, or a template
  ///   without `{title}` or `{id}` (every file would have one name).
  public init(_ template: String) throws(TemplateError) {
    let known = Self.placeholders.map { "{\($0)}" }.joined(separator: ", ")
    var parts: [Part] = []
    var rest = Substring(template)
    while let open = rest.firstIndex(of: "{") {
      if open > rest.startIndex { parts.append(.literal(String(rest[..<open]))) }
      guard let close = rest[open...].firstIndex(of: "}") else {
        throw TemplateError(expected: "a template whose braces close, using \(known)")
      }
      let name = String(rest[rest.index(after: open)..<close])
      guard Self.placeholders.contains(name) else {
        throw TemplateError(expected: "a template using only \(known) ({\(name)} is unknown)")
      }
      parts.append(.placeholder(name))
      rest = rest[rest.index(after: close)...]
    }
    if !rest.isEmpty { parts.append(.literal(String(rest))) }
    guard parts.contains(.placeholder("title")) || parts.contains(.placeholder("id")) else {
      throw TemplateError(expected: "a template with {title} or {id}, e.g. \(Self.defaultTemplate)")
    }
    self.parts = parts
    self.template = template
  }

  /// The relative path of a file: folders and a file name, each safe.
  public func path(_ values: Values) -> String {
    var text = ""
    for part in parts {
      switch part {
      case .literal(let literal): text += literal
      // A value never makes a folder: its separators are replaced.
      case .placeholder(let name): text += Self.field(values.value(of: name))
      }
    }
    let components = text.split(separator: "/").map { Self.component(String($0)) }.filter {
      !$0.isEmpty && $0 != "." && $0 != ".."
    }
    return components.isEmpty ? "untitled" : components.joined(separator: "/")
  }

  /// `path` with ` (2)`, ` (3)`… before its extension: the name when `path` is taken.
  public static func numbered(_ path: String, _ number: Int) -> String {
    let url = path as NSString
    let ext = url.pathExtension
    let stem = ext.isEmpty ? path : url.deletingPathExtension
    return stem + " (\(number))" + (ext.isEmpty ? "" : "." + ext)
  }

  /// The characters no value keeps: separators and what Windows refuses.
  private static let refused: Set<Character> = ["/", "\\", ":", "*", "?", "\"", "<", ">", "|"]

  /// A value with its separators and refused characters replaced, white space folded.
  static func field(_ value: String) -> String {
    var result = ""
    var lastWasSpace = false
    // Invisible formatting goes, scalar by scalar (a right-to-left override that disguises an
    // extension, a zero-width joiner, which is part of the character before it).
    var visible = String.UnicodeScalarView()
    visible.append(
      contentsOf: value.precomposedStringWithCanonicalMapping.unicodeScalars.filter {
        $0.properties.generalCategory != .format
      })
    let characters = Array(String(visible))
    for (index, character) in characters.enumerated() {
      if character.isWhitespace || character.unicodeScalars.allSatisfy(Self.isControl) {
        if !lastWasSpace, !result.isEmpty { result.append(" ") }
        lastWasSpace = true
        continue
      }
      lastWasSpace = false
      switch character {
      case "/", "\\", "|": result.append("-")
      // `Episode 1: Title` reads `Episode 1 - Title`; `10:30` and `a:b`, `10-30` and `a-b`.
      case ":":
        let spaced = index + 1 == characters.count || characters[index + 1].isWhitespace
        result.append(spaced ? " -" : "-")
      case "\"": result.append("'")
      case let other where refused.contains(other): result.append("_")
      default: result.append(character)
      }
    }
    while result.last == " " { result.removeLast() }
    return result
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }

  /// Windows's device names, refused as a name's stem whatever the extension.
  private static let reserved: Set<String> = Set(
    ["CON", "PRN", "AUX", "NUL"] + (1...9).flatMap { ["COM\($0)", "LPT\($0)"] })

  /// The longest name kept, in UTF-8 bytes: 255 is the limit of most file systems, less room
  /// for ` (99)` and `.part`.
  static let maximumBytes = 200

  /// One folder or file name, made safe.
  static func component(_ raw: String) -> String {
    // Runs of spaces left by empty values fold, and none stays before the extension.
    var name = raw.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    let dot = name.lastIndex(of: ".")
    if let dot, dot > name.startIndex, name[name.index(before: dot)] == " " {
      name.remove(at: name.index(before: dot))
    }
    // No hidden file, nothing a shell command would read as an option.
    while let first = name.first, first == "." || first == "-" || first.isWhitespace {
      name.removeFirst()
    }
    // A name that was only dots before its extension (a title `..`: `...mp3`) keeps it as one.
    if raw.prefix(while: { $0 == "." }).count >= 2, !name.isEmpty, !name.contains(".") {
      name = "untitled." + name
    }
    // Windows drops trailing dots and spaces: "a." and "a" would be one file.
    while let last = name.last, last == "." || last.isWhitespace { name.removeLast() }
    let stem = name.split(separator: ".", maxSplits: 1).first.map(String.init) ?? name
    if reserved.contains(stem.uppercased()) { name = "_" + name }
    guard name.utf8.count > maximumBytes else { return name }
    let ext = (name as NSString).pathExtension
    let keepsExtension = !ext.isEmpty && ext.utf8.count <= 16
    var stemPart = keepsExtension ? (name as NSString).deletingPathExtension : name
    let budget = maximumBytes - (keepsExtension ? ext.utf8.count + 1 : 0)
    while stemPart.utf8.count > budget { stemPart.removeLast() }
    while let last = stemPart.last, last == "." || last.isWhitespace { stemPart.removeLast() }
    return keepsExtension ? stemPart + "." + ext : stemPart
  }

  /// The extension of a file: its URL's when that is a media or document extension (the last
  /// component of the decoded path, which must hold no control character: `e2.mp3%00.sh` is not
  /// `.sh`), else its type's, else `bin`. An extension that runs (`sh`, `exe`, `desktop`…) is
  /// never taken from a URL: only these are.
  public static func fileExtension(url: String, type: String?) -> String {
    if let path = URL(string: url)?.path,
      let last = path.split(separator: "/").last,
      !last.unicodeScalars.contains(where: isControl)
    {
      let ext = (String(last) as NSString).pathExtension.lowercased()
      if safeExtensions.contains(ext) { return ext }
    }
    let base = type?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces)
    return base.flatMap { typeExtensions[$0.lowercased()] } ?? "bin"
  }

  /// The extensions a URL may give a downloaded file: media and documents, none that runs.
  static let safeExtensions: Set<String> = Set(typeExtensions.values).union([
    "mp3", "m4a", "m4b", "aac", "ogg", "oga", "opus", "flac", "wav", "weba", "mp4", "m4v", "webm",
    "mov", "ogv", "mkv", "avi", "mpg", "mpeg", "3gp", "pdf", "epub", "jpg", "jpeg", "png", "gif",
    "webp", "txt",
  ])

  private static let typeExtensions: [String: String] = [
    "audio/mpeg": "mp3", "audio/mp3": "mp3", "audio/mp4": "m4a", "audio/x-m4a": "m4a",
    "audio/aac": "aac", "audio/ogg": "ogg", "audio/opus": "opus", "audio/flac": "flac",
    "audio/wav": "wav", "audio/x-wav": "wav", "audio/webm": "weba", "video/mp4": "mp4",
    "video/x-m4v": "m4v", "video/webm": "webm", "video/quicktime": "mov", "video/ogg": "ogv",
    "video/x-matroska": "mkv", "application/pdf": "pdf",
  ]
}
