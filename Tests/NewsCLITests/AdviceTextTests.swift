import NewsCore
import Testing

@testable import NewsCLI

@Suite("advice: NewsCore names the step, the command line words it")
struct AdviceTextTests {
  @Test(
    "each advice names the command that takes the step",
    arguments: [
      (Advice.repairStore(does: "removes it"), "'news doctor --repair' removes it"),
      (.repairStore(), "'news doctor --repair'"),
      (.examineStore, "see 'news doctor'"),
      (.fetchHeadlinesOnline, "run 'news headlines' online, or 'news sync', first"),
      (
        .listArticlesFirst,
        "list some first: news feed, news search, news bookmarks; or pass an id or URL"
      ),
      (.fetchFullText(id: "ab12"), "run 'news show ab12 --full' online first"),
      (.refreshNow, "'news feed --refresh' asks now"),
      (.sync, "news sync brings it"),
      (.listAccounts, "news accounts lists them"),
      (.removeAccount("home"), "news accounts remove home first"),
      (.addAccountAgain, "news accounts add it again with the right one"),
      (.listSources, "news sources lists them"),
      (.listIgnoreRules, "news ignore list numbers them"),
    ])
  func words(advice: Advice, words: String) {
    #expect(advice.words == words)
  }

  @Test("an error's sentence is its message, then its advice; without advice, the message alone")
  func sentences() {
    #expect(
      FullTextError.notKept(id: "ab12").sentence
        == "no full text kept for ab12 (run 'news show ab12 --full' online first)")
    #expect(AccountError.unknown("x").sentence == "unknown account 'x' (news accounts lists them)")
    #expect(AccountError.invalidName("X").sentence == AccountError.invalidName("X").message)
    #expect(OfflineError.nothingStored.advice == .fetchHeadlinesOnline)
    let damage = StoreDamage(path: "/s/f.enc", leftOut: "its texts are left out", advice: .sync)
    #expect(
      damage.sentence == "/s/f.enc does not open, so its texts are left out (news sync brings it)")
    #expect(Notice("left out").sentence == "left out")
  }
}
