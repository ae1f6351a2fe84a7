import Foundation

/// The downloads remembered (`downloads`): by enclosure URL, what `news download --new` skips and
/// where `news play` finds a file.
extension ArticleStore {
  /// Every download remembered, finished or not, by enclosure URL.
  public func downloads() throws -> [String: DownloadRecord] {
    try store.readSide(
      [String: DownloadRecord].self, name: StoreLayout.downloads,
      leftOut: "what was downloaded is not known (files on disk stay)",
      advice: .repairStore(does: "removes it")) ?? [:]
  }

  /// Remembers `record` for the enclosure at `url` (`nil` forgets it). With the record damaged
  /// nothing is remembered (the file is never replaced; reading it said so): the download goes
  /// on, only not resumable from another run.
  public func noteDownload(_ record: DownloadRecord?, of url: String) throws {
    do {
      try store.update(StoreLayout.downloads, initial: [String: DownloadRecord]()) { downloads in
        downloads[url] = record
      }
    } catch let error as StoreError where error.isDamage {
      _ = try downloads()
    }
  }
}
