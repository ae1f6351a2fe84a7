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
      let marks = ids.compactMap { found[$0] }.map { AccountMark(item: $0, change: change) }
      try store.update(StoreLayout.accountOutbox(account), initial: [AccountMark]()) { queued in
        queued = Self.appending(marks, to: queued)
      }
    }
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

  /// `queued` with `marks` at its end, each replacing an earlier mark of its item and kind.
  static func appending(_ marks: [AccountMark], to queued: [AccountMark]) -> [AccountMark] {
    func kind(_ mark: AccountMark) -> String {
      mark.item + (mark.change == .read || mark.change == .unread ? "/read" : "/saved")
    }
    let replaced = Set(marks.map(kind))
    return queued.filter { !replaced.contains(kind($0)) } + marks
  }
}
