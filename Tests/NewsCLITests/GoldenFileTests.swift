import FeedParsing
import Foundation
import NewsCore
import TestSupport
import Testing

@testable import NewsCLI

/// Whole texts compared with the files in `Golden/`, as swift-argument-parser asserts its help:
/// any change to help, completions or the manual shows in the diff of a commit. To accept a
/// change on purpose: `NEWS_UPDATE_GOLDEN=1 swift test --filter GoldenFile`.
@Suite("Golden files: every --help, the completion scripts, the manual")
struct GoldenFileTests {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Golden")

  func check(_ text: String, against name: String) throws {
    let url = Self.directory.appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["NEWS_UPDATE_GOLDEN"] == "1" {
      try Data(text.utf8).write(to: url)
      return
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    #expect(
      text == expected,
      "\(name) differs; if the change is meant, run NEWS_UPDATE_GOLDEN=1 swift test --filter GoldenFile"
    )
  }

  @Test("news --help")
  func overview() throws {
    try check(HelpFormatter.overview(NewsCLI.commandSpecs), against: "help.txt")
  }

  /// Every command and subcommand, by name.
  static let specs = NewsCLI.commandSpecs.flatMap { [$0] + $0.subcommands }

  @Test("news <command> [<subcommand>] --help", arguments: specs.map(\.name))
  func help(command: String) throws {
    let spec = try #require(Self.specs.first { $0.name == command })
    let file = command.replacingOccurrences(of: " ", with: "-")
    try check(HelpFormatter.help(for: spec), against: "help-\(file).txt")
  }

  @Test(
    "every help's prose fits 80 columns, and an example is one command (a continuation shown)",
    arguments: specs.map(\.name))
  func helpFits(command: String) throws {
    let spec = try #require(Self.specs.first { $0.name == command })
    var examples = false
    for line in HelpFormatter.help(for: spec).split(separator: "\n") {
      if !line.hasPrefix(" ") { examples = line == "EXAMPLES:" }
      // Examples and the usage line are never broken: a command cut in two could not be pasted.
      if examples {
        // A `\` that Swift's string literal ate leaves a run of spaces inside the command.
        let command = line.split(separator: "#").first ?? line
        #expect(!command.trimmingCharacters(in: .whitespaces).contains("    "), "\(line)")
      } else if !line.hasPrefix("USAGE:") {
        #expect(line.count <= 80, "\(command): \(line)")
      }
    }
  }

  @Test("news completion <shell>", arguments: CompletionScript.shells)
  func completion(shell: String) throws {
    let script = try #require(
      CompletionScript.script(
        for: shell, commands: NewsCLI.commandSpecs + [DocumentationCommands.helpSpec]))
    try check(script, against: "completion.\(shell)")
  }

  @Test("news manual")
  func manual() throws {
    try check(ManualPage.render(NewsCLI.commandSpecs), against: "news.1")
  }

  /// Where `shell` is installed, if it is (.ci/run installs zsh and fish).
  static func shell(_ name: String) -> String? {
    ["/usr/bin/\(name)", "/bin/\(name)", "/usr/local/bin/\(name)"].first(
      where: FileManager.default.isExecutableFile)
  }

  @Test("the bash completion script is valid bash", .enabled(if: shell("bash") != nil, "no bash"))
  func bashSyntax() async throws { try await syntax(shell: "bash", flag: "-n") }

  @Test("the zsh completion script is valid zsh", .enabled(if: shell("zsh") != nil, "no zsh"))
  func zshSyntax() async throws { try await syntax(shell: "zsh", flag: "-n") }

  @Test(
    "the fish completion script is valid fish", .enabled(if: shell("fish") != nil, "no fish"))
  func fishSyntax() async throws { try await syntax(shell: "fish", flag: "--no-execute") }

  func syntax(shell: String, flag: String) async throws {
    let executable = try #require(Self.shell(shell))
    let process = try Spawned(
      URL(fileURLWithPath: executable),
      arguments: [flag, Self.directory.appendingPathComponent("completion.\(shell)").path],
      errors: .pipe)
    let (termination, _, errors) = await process.collect()
    let message = String(decoding: errors, as: UTF8.self)
    #expect(termination.status == 0 && !termination.signalled, "\(shell): \(message)")
  }
}
