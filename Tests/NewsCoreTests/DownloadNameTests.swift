import Foundation
import Testing

@testable import NewsCore

/// File names from titles that no file system refuses, and the download settings.
@Suite("Download names and settings")
struct DownloadNameTests {
  static func values(title: String, source: String = "cast", ext: String = "mp3")
    -> DownloadName.Values
  {
    DownloadName.Values(source: source, date: "2026-11-25", title: title, ext: ext, id: "x1", n: 1)
  }

  @Test(
    "hostile titles make safe names",
    arguments: [
      ("Plain title", "cast/2026-11-25 Plain title.mp3"),
      ("../../etc/passwd", "cast/2026-11-25 ..-..-etc-passwd.mp3"),
      ("a/b\\c|d", "cast/2026-11-25 a-b-c-d.mp3"),
      ("Q: what? *yes* <no> \"ok\"", "cast/2026-11-25 Q - what_ _yes_ _no_ 'ok'.mp3"),
      ("Live at 10:30: and:or", "cast/2026-11-25 Live at 10-30 - and-or.mp3"),
      ("Ends in a colon:", "cast/2026-11-25 Ends in a colon -.mp3"),
      ("tab\tnew\nline\u{1B}[31m red", "cast/2026-11-25 tab new line [31m red.mp3"),
      ("  spaced   out  ", "cast/2026-11-25 spaced out.mp3"),
      ("right\u{202E}to left", "cast/2026-11-25 rightto left.mp3"),
      ("", "cast/2026-11-25.mp3"),
      ("zero\u{200D}width\u{200B} joined", "cast/2026-11-25 zerowidth joined.mp3"),
    ])
  func hostile(title: String, expected: String) {
    let name = try? DownloadName(DownloadName.defaultTemplate)
    #expect(name?.path(Self.values(title: title)) == expected)
  }

  @Test(
    "a name that is a dot file, an option, a device or ends in a dot is changed",
    arguments: [
      (".hidden", "hidden"), ("-rf", "rf"), ("CON", "_CON"), ("nul.mp3", "_nul.mp3"),
      ("name. ", "name"), ("..", ""), ("LPT9.txt", "_LPT9.txt"), ("console", "console"),
      ("...mp3", "untitled.mp3"), ("..mp3", "untitled.mp3"),
    ])
  func component(raw: String, expected: String) {
    #expect(DownloadName.component(raw) == expected)
  }

  @Test("a long title is cut at 200 bytes on a character boundary, its extension kept")
  func long() throws {
    let name = try DownloadName("{title}.{ext}")
    let path = name.path(Self.values(title: String(repeating: "é", count: 300)))
    #expect(path.utf8.count <= DownloadName.maximumBytes)
    #expect(path.hasSuffix("é.mp3"))
    #expect(path == path.precomposedStringWithCanonicalMapping)
  }

  @Test("a source or template cannot climb out of the directory")
  func climbing() throws {
    let name = try DownloadName("../{source}/./{title}.{ext}")
    #expect(name.path(Self.values(title: "T", source: "..")) == "T.mp3")
    let absolute = try DownloadName("/{id}")
    #expect(absolute.path(Self.values(title: "T")) == "x1")
  }

  @Test(
    "templates: unknown placeholders, open braces and no title or id are refused",
    arguments: ["{source}/{nope}.{ext}", "{title", "{source}/{date}.{ext}"])
  func refused(template: String) {
    #expect(throws: DownloadName.TemplateError.self) { try DownloadName(template) }
  }

  @Test("numbered names keep their extension")
  func numbered() {
    #expect(DownloadName.numbered("/d/a b.mp3", 2) == "/d/a b (2).mp3")
    #expect(DownloadName.numbered("/d/noext", 3) == "/d/noext (3)")
  }

  @Test(
    "extensions come from the URL when it is media, else the type, else bin; never one that runs",
    arguments: [
      ("https://e.example/e2.mp3%00.sh", "audio/mpeg", "mp3"),
      ("https://e.example/e2.mp3%00.sh", nil, "bin"), ("https://e.example/run.sh", nil, "bin"),
      ("https://e.example/x.exe", "audio/mpeg", "mp3"),
      ("https://e.example/a.desktop", "application/octet-stream", "bin"),
      ("https://e.example/ep.MP3?x=1", nil, "mp3"), ("https://e.example/ep", "audio/x-m4a", "m4a"),
      ("https://e.example/ep.download-now", "video/mp4", "mp4"),
      ("https://e.example/ep", "application/unknown", "bin"),
      ("https://e.example/ep", "audio/mpeg; charset=x", "mp3"),
    ] as [(String, String?, String)])
  func extensions(url: String, type: String?, expected: String) {
    #expect(DownloadName.fileExtension(url: url, type: type) == expected)
  }

  @Test("the directory: NEWS_DOWNLOAD_DIR, XDG_DOWNLOAD_DIR, user-dirs.dirs, ~/Downloads")
  func directory() throws {
    let home = ["HOME": "/home/u"]
    func resolved(_ values: [String: String], userDirs: String? = nil) throws -> String {
      try DownloadSettings.resolve(home.merging(values) { $1 }, userDirs: userDirs).directory.path
    }
    #expect(try resolved([:]) == "/home/u/Downloads")
    #expect(try resolved(["NEWS_DOWNLOAD_DIR": "~/pods"]) == "/home/u/pods")
    #expect(try resolved(["XDG_DOWNLOAD_DIR": "/data/dl"]) == "/data/dl")
    let userDirs = "# written by xdg-user-dirs-update\nXDG_DOWNLOAD_DIR=\"$HOME/Téléchargements\"\n"
    #expect(try resolved([:], userDirs: userDirs) == "/home/u/Téléchargements")
    #expect(throws: ConfigurationError.self) { try resolved(["NEWS_DOWNLOAD_DIR": "pods"]) }
  }

  @Test(
    "NEWS_DOWNLOAD_MAX takes bytes or K, M, G, T",
    arguments: [
      ("1000", Int64(1000)), ("500M", 500 << 20), ("4G", 4 << 30), ("4GiB", 4 << 30),
      ("2 kb", 2048), ("1T", 1 << 40),
    ])
  func sizes(text: String, bytes: Int64) throws {
    #expect(try DownloadSettings.bytes(["NEWS_DOWNLOAD_MAX": text], "NEWS_DOWNLOAD_MAX") == bytes)
  }

  @Test(
    "bad sizes, concurrency and templates name their variable",
    arguments: [
      ("NEWS_DOWNLOAD_MAX", "0"), ("NEWS_DOWNLOAD_MAX", "lots"), ("NEWS_DOWNLOAD_MAX", "-5M"),
      ("NEWS_DOWNLOAD_MAX", "99999999999T"), ("NEWS_DOWNLOAD_CONCURRENCY", "0"),
      ("NEWS_DOWNLOAD_NAME", "{nope}"),
    ])
  func badValues(variable: String, value: String) {
    #expect {
      _ = try Configuration(environment: [variable: value])
    } throws: { error in
      (error as? ConfigurationError)?.message.contains(variable) == true
    }
  }

  @Test("defaults: 3 at once, 4 GiB, the default template")
  func defaults() throws {
    let settings = try Configuration(environment: ["HOME": "/home/u"]).downloads
    #expect(settings.concurrency == 3)
    #expect(settings.maximumBytes == 4 << 30)
    #expect(settings.name.template == "{source}/{date} {title}.{ext}")
    #expect(ByteCount.limit(settings.maximumBytes) == "4 GiB")
  }
}
