import Testing

@testable import NewsCore

/// newsboat settings carried as the environment variable to set, not "no such setting".
@Suite("newsboat settings that are environment variables here")
struct NewsboatEnvironmentTests {
  @Test(
    "each names its variable and value",
    arguments: [
      (["download-path", "~/podcasts/%n"], "NEWS_DOWNLOAD_DIR=~/podcasts"),
      (["download-path", "/srv/pods/%h/%n"], "NEWS_DOWNLOAD_DIR=/srv/pods"),
      (["download-path", "~/Downloads"], "NEWS_DOWNLOAD_DIR=~/Downloads"),
      (["player", "mpv --no-video"], "NEWS_PLAYER=mpv --no-video"),
      (["max-downloads", "3"], "NEWS_DOWNLOAD_CONCURRENCY=3"),
      (["download-timeout", "45"], "NEWS_TIMEOUT=45"),
      (["keep-articles-days", "30"], "NEWS_RETENTION_DAYS=30"),
      (
        ["proxy", "localhost:3128"],
        "https_proxy=http://localhost:3128 and http_proxy=http://localhost:3128"
      ),
      (
        ["proxy", "socks5h://h:1080"],
        "https_proxy=socks5h://h:1080 and http_proxy=socks5h://h:1080"
      ),
    ])
  func counterpart(words: [String], assignment: String) throws {
    let outcome = try #require(NewsboatEnvironment.counterpart(words))
    #expect(
      outcome
        == "an environment variable here: \(assignment) in the configuration directory's .env "
        + "(docs/configuration.md)")
  }

  @Test(
    "no counterpart: another setting, no value, or a path that is all placeholders",
    arguments: [["show-read-feeds", "no"], ["player"], ["player", ""], ["download-path", "%n"]])
  func none(words: [String]) {
    #expect(NewsboatEnvironment.counterpart(words) == nil)
  }
}
