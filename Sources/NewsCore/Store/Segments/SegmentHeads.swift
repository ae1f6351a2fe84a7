import Foundation
import Synchronization

/// The heads read from each segment, kept by a long-running reader of the store (`news serve`)
/// between its reads of every article (``ArticleStore/allArticleHeads(kept:)``): a segment's
/// records never change under its number (numbers are never reused), so after a sync only the
/// segments it wrote are read.
public final class SegmentHeads: Sendable {
  private let segments = Mutex<[Int: (info: SegmentInfo, heads: [StoredHead])]>([:])

  public init() {}

  /// How many segments it holds.
  var count: Int { segments.withLock { $0.count } }

  /// The heads kept of segment `info`; `nil` when it was not read as it is now.
  func heads(of info: SegmentInfo) -> [StoredHead]? {
    segments.withLock { kept in
      kept[info.number].flatMap { $0.info.count == info.count ? $0.heads : nil }
    }
  }

  /// Keeps the heads read of segment `info`.
  func keep(_ heads: [StoredHead], of info: SegmentInfo) {
    segments.withLock { $0[info.number] = (info, heads) }
  }

  /// Forgets every segment but `numbers` (those the manifest lists).
  func keepOnly(_ numbers: Set<Int>) {
    segments.withLock { kept in kept = kept.filter { numbers.contains($0.key) } }
  }
}
