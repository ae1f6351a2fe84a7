import Foundation

/// What the store remembers of one enclosure's download (by the enclosure's URL): where it went,
/// and whether it finished. An unfinished one is resumed from its `.part` file.
public struct DownloadRecord: Codable, Sendable, Equatable {
  /// The article the enclosure belongs to.
  public var article: String
  /// The file's absolute path (the `.part` file is this path with `.part` added).
  public var path: String
  /// Its size once finished; the bytes kept so far before.
  public var bytes: Int64
  /// The server's strong `ETag`, else its `Last-Modified`, when the download began: sent as
  /// `If-Range` so that a changed file starts over instead of being spliced.
  public var validator: String?
  /// When it finished; `nil` while a part is all there is.
  public var finishedAt: Date?

  /// Whether the whole file was downloaded.
  public var isFinished: Bool { finishedAt != nil }
}
