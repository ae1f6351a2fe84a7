/// What the user can do about a message, as a value: NewsCore names the step, and the command
/// line words it (it alone knows its commands' names and flags). A ``NewsError`` carries one in
/// ``NewsError/advice``, a damaged store file in ``StoreDamage/advice``, a source's failure in
/// ``FeedSourceReport/advice``.
public enum Advice: Sendable, Hashable {
  /// The store's repair, and what it does to the file in question (`removes it`), when said.
  case repairStore(does: String? = nil)
  /// A look at the store: which key opens which file.
  case examineStore
  /// Fetching the list online first (or syncing): nothing is stored for it yet.
  case fetchHeadlinesOnline
  /// Listing some articles first (to refer to them by number), or passing an id or URL.
  case listArticlesFirst
  /// Fetching the full text of article `id` online first.
  case fetchFullText(id: String)
  /// Fetching now, before the wait a failing source is given ends.
  case refreshNow
  /// A sync, which brings an account's feeds.
  case sync
  /// The list of accounts.
  case listAccounts
  /// Removing account `name` first.
  case removeAccount(String)
  /// Adding the account again with the right user name and password.
  case addAccountAgain
  /// The list of sources.
  case listSources
  /// The numbered list of ignore rules.
  case listIgnoreRules
  /// Subscribing to the feed at this address.
  case subscribe(String)
  /// Importing the list of feeds at this address.
  case importList(String)
}
