import FeedParsing
import Foundation
import NewsCore
import TestSupport
import Testing

@testable import NewsCLI

@Suite("Completions, manual and JSON Lines")
struct DocumentationTests {
  let harness: Harness

  init() throws {
    harness = try Harness()
    harness.server.route("/v2/top-headlines", .fixture("top-headlines-us-2022-02-17.json"))
    for name in ["a", "b", "c"] {
      harness.server.route("/feed/\(name).json", .fixture("source_\(name).readme-sample.json"))
    }
  }

  @Test(
    "completion scripts name every command and every option", arguments: CompletionScript.shells)
  func completions(shell: String) async {
    let result = await harness.run(["completion", shell])
    #expect(result.code == .success)
    for command in NewsCLI.commandSpecs {
      #expect(result.out.contains(command.name))
      for option in command.allOptions { #expect(result.out.contains(option.name)) }
      for choice in command.allOptions.flatMap(\.choices) { #expect(result.out.contains(choice)) }
    }
  }

  @Test("the bash script is valid bash")
  func bashSyntax() async throws {
    let result = await harness.run(["completion", "bash"])
    let path = try harness.home.write("news.bash", result.out)
    let process = try Spawned(URL(fileURLWithPath: "/bin/bash"), arguments: ["-n", path])
    #expect(await process.wait() == ChildProcess.Termination(waitStatus: 0))
  }

  @Test("completion --list prints the names the scripts complete: sources, then tags")
  func listedNames() async throws {
    let base = harness.server.baseURL.absoluteString
    try harness.writeConfig(
      sources: #"{"name": "blog", "url": "\#(base)/b.xml", "tags": ["tech", "daily"]}"#)
    let sources = await harness.run(["completion", "--list", "sources"])
    #expect(sources.code == .success)
    #expect(sources.out == "a\nb\nc\nblog\n")
    #expect(await harness.run(["completion", "--list", "tags"]).out == "daily\ntech\n")
    #expect(harness.server.requests.isEmpty, "nothing is fetched at a Tab")
    #expect(await harness.run(["completion"]).code == .usage)
    #expect(await harness.run(["completion", "--list", "accounts"]).out == "")
  }

  /// Runs `script` with a `news` on PATH that answers `completion --list` as `news` would for
  /// sources `alpha`, `beta` and tag `tech`; its standard output.
  func completing(shell: String, _ script: String) async throws -> String {
    let bin = harness.home.path("bin")
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    _ = try harness.home.writeExecutable(
      "bin/news",
      """
      #!/bin/sh
      case "$1 $2 $3" in
        "completion --list sources") printf 'alpha\\nbeta\\n' ;;
        "completion --list tags") printf 'tech\\n' ;;
        "completion --list accounts") printf 'home\\n' ;;
      esac
      """)
    let process = try Spawned(
      URL(fileURLWithPath: shell), arguments: ["-c", script],
      environment: ["PATH": bin + ":/usr/bin:/bin", "HOME": harness.home.path("")],
      output: .pipe, errors: .pipe)
    let (termination, output, errors) = await process.collect()
    #expect(
      termination == ChildProcess.Termination(waitStatus: 0),
      "\(String(decoding: errors, as: UTF8.self))")
    return String(decoding: output, as: UTF8.self)
  }

  @Test("bash completes source names after --source and sources set, tags after --tag")
  func bashNames() async throws {
    let script = try harness.home.write(
      "news.bash", await harness.run(["completion", "bash"]).out)
    let out = try await completing(
      shell: "/bin/bash",
      """
      source \(script)
      for words in "feed --source a" "sources set b" "feed --tag t" "sources set --t" \\
        "sync --account h" "accounts remove h" "accounts add h"; do
        COMP_WORDS=(news $words); COMP_CWORD=3; COMPREPLY=(); _news; echo "${COMPREPLY[*]}"
      done
      """)
    // A new account's name is the reader's to choose: none offered.
    #expect(out == "alpha\nbeta\ntech\n--tag --ttl --tags --title\nhome\nhome\n\n")
  }

  @Test(
    "fish completes source names after --source and sources remove, offering no file",
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: "/usr/bin/fish"), "fish is not installed"))
  func fishNames() async throws {
    let script = try harness.home.write(
      "news.fish", await harness.run(["completion", "fish"]).out)
    let out = try await completing(
      shell: "/usr/bin/fish",
      """
      source \(script)
      complete -C "news feed --source a"; complete -C "news sources remove b"
      """)
    #expect(
      out.split(separator: "\n").map { $0.split(separator: "\t").first ?? "" } == ["alpha", "beta"])
  }

  @Test("an unknown shell is exit 64")
  func unknownShell() async {
    #expect(await harness.run(["completion", "tcsh"]).code == .usage)
  }

  @Test("the manual documents every command, option, variable and exit code")
  func manual() async {
    let result = await harness.run(["manual"])
    #expect(result.out.hasPrefix(".TH NEWS 1"))
    for command in NewsCLI.commandSpecs {
      #expect(result.out.contains("news \(command.name)"))
      for option in command.allOptions {
        #expect(result.out.contains("\\-\\-" + ManualPage.escape(option.name)))
      }
    }
    #expect(result.out.contains("NEWS_STORE_KEY"))
    #expect(result.out.contains(".B 130"))
    #expect(result.out.unicodeScalars.allSatisfy { $0.isASCII })
    #expect(await harness.run(["help", "--man"]).out == result.out)
  }

  @Test(
    "roff escaping",
    arguments: [("a-b", "a\\-b"), (".dot", "\\&.dot"), ("x\\y", "x\\ey"), ("…", "\\[u2026]")])
  func roff(text: String, expected: String) {
    #expect(ManualPage.escape(text) == expected)
  }

  @Test(
    "--jsonl: one ARTICLE per line", arguments: [["headlines"], ["search", "the"], ["bookmarks"]])
  func jsonLines(command: [String]) async throws {
    await harness.succeed(["headlines"])
    await harness.succeed(["bookmark", "1", "2"])
    let result = await harness.run(command + ["--jsonl"])
    #expect(result.code == .success)
    let lines = result.out.split(separator: "\n")
    #expect(!lines.isEmpty)
    for line in lines {
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      #expect(object["id"] is String && object.keys.contains("imageUrl"))
    }
  }

  @Test("feed --jsonl: one ITEM per line")
  func feedLines() async throws {
    let result = await harness.run(["feed", "--jsonl"])
    let lines = result.out.split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines[0].hasPrefix(#"{"id":"a-"#))
  }

  @Test("--json with --jsonl is a usage error")
  func both() async {
    #expect(await harness.run(["headlines", "--json", "--jsonl"]).code == .usage)
    #expect(harness.server.requests.isEmpty)
  }
}

@Suite("README, docs/ and .env.example keep up with the code")
struct ReadmeTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// README.md and every page of docs/, one after the other.
  static func documentation() throws -> String {
    let docs = Self.root.appendingPathComponent("docs")
    let pages = try FileManager.default.contentsOfDirectory(atPath: docs.path)
      .filter { $0.hasSuffix(".md") }.sorted()
    return try (["README.md"] + pages.map { "docs/" + $0 }).map {
      try String(contentsOf: Self.root.appendingPathComponent($0), encoding: .utf8)
    }.joined(separator: "\n")
  }

  @Test("every command has a section in the docs, every variable a row and a line in .env.example")
  func everythingDocumented() throws {
    let readme = try Self.documentation()
    let example = try String(
      contentsOf: Self.root.appendingPathComponent(".env.example"), encoding: .utf8)
    let headings = readme.split(separator: "\n").filter {
      $0.hasPrefix("## ") || $0.hasPrefix("### ")
    }
    for spec in NewsCLI.commandSpecs where !["completion", "manual"].contains(spec.name) {
      #expect(
        headings.contains {
          $0.contains("`news \(spec.name)`") || $0.contains("`news \(spec.name) ")
        },
        "README lacks news \(spec.name)")
    }
    for (names, _) in Configuration.variables {
      for name in names.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) })
      where !name.contains("<") {
        #expect(readme.contains("`\(name)`"), "README lacks \(name)")
        #expect(example.contains(name), ".env.example lacks \(name)")
      }
    }
  }

  @Test("README stays short, and every link between the pages leads to a page and a heading")
  func linksHold() throws {
    let readme = try String(
      contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count < 300)
    let link = try NSRegularExpression(
      pattern: #"\]\(((?:docs/)?[a-z-]+\.md|\.\./README\.md)?(#[a-z0-9-]+)?\)"#)
    for page in ["README.md"]
      + (try FileManager.default.contentsOfDirectory(
        atPath: Self.root.appendingPathComponent("docs").path
      ).filter { $0.hasSuffix(".md") }.map { "docs/" + $0 })
    {
      let text = try String(contentsOf: Self.root.appendingPathComponent(page), encoding: .utf8)
      let folder = (page as NSString).deletingLastPathComponent
      for match in link.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
        let file = Range(match.range(at: 1), in: text).map { String(text[$0]) }
        let anchor = Range(match.range(at: 2), in: text).map { String(text[$0].dropFirst()) }
        let target =
          file.map { (folder as NSString).appendingPathComponent($0) } ?? page
        let path = Self.root.appendingPathComponent((target as NSString).standardizingPath)
        let linked = try? String(contentsOf: path, encoding: .utf8)
        #expect(linked != nil, "\(page) links to \(target), which does not exist")
        guard let anchor, let linked else { continue }
        let anchors = linked.split(separator: "\n").filter { $0.hasPrefix("#") }.map { heading in
          heading.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
            .filter { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" }
            .replacingOccurrences(of: " ", with: "-")
        }
        #expect(anchors.contains(anchor), "\(page) links to \(target)#\(anchor): no such heading")
      }
    }
  }
}
