import Foundation
import NewsCore

/// How many colours the terminal draws: truecolor where `COLORTERM` says `truecolor` or
/// `24bit`, else what `tput colors` says (256, 16, 8, or none: attributes only). A colour the
/// terminal cannot draw is drawn as the nearest it can.
enum ColorDepth: Equatable, Sendable {
  /// Bold, underline and the like, no colour.
  case none
  /// The 8 basic colours.
  case basic
  /// The 8 and their bright forms.
  case sixteen
  case palette256
  case trueColor

  /// The terminal's depth, from the environment and `tput colors`.
  static func detect(environment: [String: String]) -> ColorDepth {
    let colorTerm = environment["COLORTERM"]?.lowercased() ?? ""
    if colorTerm == "truecolor" || colorTerm == "24bit" { return .trueColor }
    if let count = tputColors(environment: environment) { return depth(colors: count) }
    let term = environment["TERM"] ?? ""
    return term.contains("256color") ? .palette256 : .basic
  }

  /// The depth a number of colours (`tput colors`) allows.
  static func depth(colors: Int) -> ColorDepth {
    switch colors {
    case 256...: .palette256
    case 16..<256: .sixteen
    case 8..<16: .basic
    default: .none
    }
  }

  /// What `tput colors` prints for the terminal, if it runs.
  private static func tputColors(environment: [String: String]) -> Int? {
    let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
      .map { $0 + "/tput" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    guard let path else { return nil }
    let child: ChildProcess
    do {
      child = try ChildProcess.spawn(
        program: path, arguments: ["colors"],
        environment: environment.filter {
          $0.key == "TERM" || $0.key == "TERMINFO" || $0.key == "TERMINFO_DIRS"
        },
        streams: ChildProcess.Streams(input: .null, output: .pipe, errors: .null), ownGroup: true)
    } catch {
      return nil
    }
    let data = FileHandle(fileDescriptor: child.output, closeOnDealloc: true)
      .readDataToEndOfFile()
    let termination = child.waitForExit()
    guard !termination.signalled, termination.status == 0 else { return nil }
    return Int(
      String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
  }
}
