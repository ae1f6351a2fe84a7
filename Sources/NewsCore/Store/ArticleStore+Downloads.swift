import Foundation

/// The downloads remembered (`downloads`): by enclosure URL, what `news download --new` skips and
/// where `news play` finds a file.
extension ArticleStore {
  /// Every download remembered, finished or not, by enclosure URL.
  public func downloads() throws -> [String: DownloadRecord] {
    try store.read([String: DownloadRecord].self, name: StoreLayout.downloads) ?? [:]
  }

  /// Remembers `record` for the enclosure at `url` (`nil` forgets it).
  public func noteDownload(_ record: DownloadRecord?, of url: String) throws {
    try store.update(StoreLayout.downloads, initial: [String: DownloadRecord]()) { downloads in
      downloads[url] = record
    }
  }
}
