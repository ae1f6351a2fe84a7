import FeedParsing
import Foundation
import NewsCore

/// One download's progress bar: `Episode 12.mp3  ████░░░░  41%  20 MB / 48 MB  2.1 MB/s  0:13`.
enum DownloadBar {
  /// The line for `entry` at `now`, at most `width` columns.
  static func line(_ entry: DownloadProgress.Entry, now: Date, width: Int, unicode: Bool) -> String
  {
    var figures: [String] = []
    let rate = self.rate(entry, now: now)
    var fraction: Double?
    if let total = entry.total, total > 0 {
      let done = min(Double(entry.bytes) / Double(total), 1)
      fraction = done
      figures.append(String(format: "%3d%%", Int(done * 100)))
      figures.append("\(ByteCount.text(entry.bytes)) / \(ByteCount.text(total))")
    } else {
      figures.append(ByteCount.text(entry.bytes))
    }
    if let rate {
      figures.append("\(ByteCount.text(Int64(rate)))/s")
      if let total = entry.total, total > entry.bytes, rate > 0 {
        figures.append(EnclosureText.time(Int((Double(total - entry.bytes) / rate).rounded(.up))))
      }
    }
    let right = figures.joined(separator: "  ")
    let barWidth = fraction == nil ? 0 : max(min(width / 5, 24), 6)
    // Room for the figures at their widest, so that the name and bar stay put as they change.
    let nameWidth = max(width - max(right.count, Self.figuresWidth) - barWidth - 4, 8)
    var name = TerminalSanitizer.clean(entry.name)
    if name.count > nameWidth { name = String(name.prefix(nameWidth - 1)) + (unicode ? "…" : "~") }
    var line = name.padding(to: nameWidth) + "  "
    if let fraction {
      let filled = Int((fraction * Double(barWidth)).rounded(.down))
      let full = String(repeating: unicode ? "█" : "#", count: filled)
      let empty = String(repeating: unicode ? "░" : "-", count: barWidth - filled)
      line += full + empty + "  "
    }
    return String((line + right).prefix(width))
  }

  /// The figures' usual widest: `100%  9.4 MB / 24 MB  6.3 MB/s  0:02`.
  static let figuresWidth = 36

  /// Bytes a second since this run took the file up (none in the first half second).
  static func rate(_ entry: DownloadProgress.Entry, now: Date) -> Double? {
    let elapsed = now.timeIntervalSince(entry.startedAt)
    guard elapsed >= 0.5 else { return nil }
    return Double(entry.bytes - entry.resumedFrom) / elapsed
  }
}
