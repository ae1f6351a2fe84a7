import Foundation

/// The marks made here on an account's items, queued for its server (store file
/// `account-<name>-outbox`): written before the mark is made here, so that a crash in between
/// loses nothing (the next sync sends it, and brings it back); removed once the server took
/// them, so that none is sent twice. A later change of an item replaces an earlier one of the
/// same kind (read then unread sends only unread).
public struct AccountOutbox: Sendable {
  let store: EncryptedStore

  /// Queues `change` for the items among `ids` that belong to an account.
  func note(_ ids: [String], _ change: AccountMark.Change) throws {
    guard !ids.isEmpty,
      let accounts = try store.read([AccountSecret].self, name: StoreLayout.accounts)
    else { return }
    for account in accounts.map(\.account.name) {
      let items = try store.read(AccountItems.self, name: StoreLayout.accountItems(account))
      let found = items?.items(of: ids) ?? [:]
      guard !found.isEmpty else { continue }
      // An item gone from the server has nothing there to mark.
      let gone = items?.gone ?? []
      let marks = ids.flatMap { found[$0] ?? [] }.filter { !gone.contains($0) }
        .map { AccountMark(item: $0, change: change) }
      guard !marks.isEmpty else { continue }
      try store.update(StoreLayout.accountOutbox(account), initial: [AccountMark]()) { queued in
        queued = Self.appending(marks, to: queued)
      }
    }
  }

  /// Queues "every item of the account feed that is the source `source` read, up to `before`"
  /// (one request, where each item would be one); `false` when `source` is no account's feed,
  /// or its API marks items only (Feedbin: each item is queued then).
  func noteFeedRead(source: String, before: Date) throws -> Bool {
    guard let accounts = try store.read([AccountSecret].self, name: StoreLayout.accounts) else {
      return false
    }
    for account in accounts.map(\.account) where account.kind.marksFeedsRead {
      guard
        let feed = try store.read(AccountState.self, name: StoreLayout.accountState(account.name))?
          .feeds.first(where: { $0.source == source })
      else { continue }
      // Nextcloud News bounds the mark by item id (ids only grow): the highest one received.
      let newest =
        account.kind == .nextcloud
        ? try store.read(AccountItems.self, name: StoreLayout.accountItems(account.name))?
          .articles.keys.compactMap { Int64($0) }.max().map(String.init) : nil
      let mark = AccountMark(
        item: feed.id, change: .read, feedBefore: before.timeIntervalSince1970.rounded(.down),
        newestItem: newest)
      let account = account.name
      try store.update(StoreLayout.accountOutbox(account), initial: [AccountMark]()) { queued in
        queued = Self.appending([mark], to: queued)
      }
      return true
    }
    return false
  }

  /// The marks of `account` still to be sent, oldest first.
  func pending(_ account: String) throws -> [AccountMark] {
    try store.read([AccountMark].self, name: StoreLayout.accountOutbox(account)) ?? []
  }

  /// Removes `sent` from the queue of `account` (those queued again since stay).
  func remove(_ sent: [AccountMark], account: String) throws {
    guard !sent.isEmpty else { return }
    let done = Set(sent)
    try store.update(StoreLayout.accountOutbox(account), initial: [AccountMark]()) { queued in
      queued.removeAll { done.contains($0) }
    }
  }

  /// `sent`, taken by the server: off the queue, and the server's state as the last sync saw it
  /// moved by them (so that the next sync, comparing, sees a change made elsewhere since, such as
  /// an item marked unread again, and not the mark sent from here).
  func accepted(_ sent: [AccountMark], account: String) throws {
    try remove(sent, account: account)
    try store.update(StoreLayout.accountItems(account), initial: AccountItems()) { known in
      for mark in sent where mark.feedBefore == nil {
        switch mark.change {
        case .read: known.unread?.remove(mark.item)
        case .unread: known.unread?.insert(mark.item)
        case .saved: known.saved?.insert(mark.item)
        case .unsaved: known.saved?.remove(mark.item)
        }
      }
    }
  }

  /// `queued` with `marks` at its end, each replacing an earlier mark of its item and kind.
  static func appending(_ marks: [AccountMark], to queued: [AccountMark]) -> [AccountMark] {
    func kind(_ mark: AccountMark) -> String {
      if mark.feedBefore != nil { return "feed:" + mark.item }
      return mark.item + (mark.change == .read || mark.change == .unread ? "/read" : "/saved")
    }
    let replaced = Set(marks.map(kind))
    return queued.filter { !replaced.contains(kind($0)) } + marks
  }
}
