import Testing

@testable import NewsCLI

/// newsboat settings news does another way or always: the import says where the behaviour went.
@Suite("newsboat settings news does another way")
struct NewsboatSettingNoteTests {
  @Test(
    "each says where its behaviour is here",
    arguments: [
      (["auto-reload", "yes"], "news sync from cron"),
      (["reload-threads", "8"], "NEWS_CONCURRENCY"),
      (["refresh-on-startup", "yes"], "R reloads every list"),
      (["show-read-articles", "no"], "news browse --unread"),
      (["article-sort-order", "date-desc"], "NEWS_BROWSE_ORDER=newest"),
      (["prepopulate-query-feeds", "yes"], "a saved search lists"),
      (["html-renderer", "w3m -dump -T text/html"], "news open <id> 1"),
      (["external-url-viewer", "urlscan"], "1o in browse"),
      (["cleanup-on-quit", "yes"], "NEWS_RETENTION_DAYS"),
      (
        ["define-filter", "unread only", #"unread = "yes""#],
        "news feed --where 'is:unread', or a saved search: news sources add --search 'is:unread'"
      ),
      (["ignore-mode", "display"], "news feed --show-ignored shows it"),
      (["notify-always", "yes"], #"{"newItem": …}"#),
      (["notify-xterm", "yes"], "notify-program becomes one"),
      (["text-width", "80"], "COLUMNS"),
      (["save-path", "~/saved"], "news show <id> > file"),
    ])
  func note(words: [String], names: String) throws {
    let note = try #require(NewsboatSettingNote.note(words))
    #expect(note.contains(names), "\(words): \(note)")
  }

  @Test(
    "nothing to say: a value news does not do, or a setting news has nothing of",
    arguments: [
      ["auto-reload", "no"], ["show-read-articles", "yes"], ["article-sort-order", "date-asc"],
      ["show-read-feeds", "no"], ["confirm-exit", "yes"],
      ["define-filter", "broken", "title ~~ x"],
    ])
  func none(words: [String]) {
    #expect(NewsboatSettingNote.note(words) == nil)
  }
}
