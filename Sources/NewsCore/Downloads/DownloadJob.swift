import FeedParsing
import Foundation

/// One enclosure to download: whose it is, and where it goes.
public struct DownloadJob: Sendable {
  /// The article carrying it.
  public var article: Article
  /// Which of the article's audio and video files (1 is the first).
  public var number: Int
  /// The file.
  public var enclosure: Enclosure
  /// Where it goes (absolute); its part is this path with `.part` added.
  public var path: String
  /// Whether a finished download of it is already there (nothing to do).
  public var isDone: Bool
}

/// What became of one job.
public struct DownloadOutcome: Sendable {
  /// What was asked.
  public var job: DownloadJob
  /// Bytes of the file on disk (all of it, once downloaded).
  public var bytes: Int64
  /// The bytes a part held when this run resumed it (0 for a fresh start).
  public var resumedFrom: Int64
  /// Why it failed, if it did.
  public var error: (any NewsError)?
  /// What the user should know of a download that succeeded (a server that said a larger size
  /// than it sent, then that the end came).
  public var warning: String?

  /// `downloaded`, `already` or `failed`.
  public var status: String {
    if error != nil { return "failed" }
    return job.isDone ? "already" : "downloaded"
  }
}
