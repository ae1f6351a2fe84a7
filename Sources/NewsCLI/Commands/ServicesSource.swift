import Foundation
import NewsCore
import Synchronization

/// The services of a long run (`news serve`): `config.json` read again when it changed (a
/// subscription from a phone, `news sources add` in another terminal), the rest kept.
final class ServicesSource: Sendable {
  private let context: Context
  private let state: Mutex<(stamp: String, services: NewsServices)>

  init(context: Context, first: NewsServices) {
    self.context = context
    state = Mutex((Self.stamp(first.configuration), first))
  }

  /// The services for `config.json` as it is now.
  ///
  /// - Throws: what reading a changed `config.json` throws (the request that asked fails, the
  ///   server goes on).
  func current() throws -> NewsServices {
    try state.withLock { state in
      let stamp = Self.stamp(state.services.configuration)
      guard stamp != state.stamp else { return state.services }
      let services = context.services(try context.readSettings())
      state = (stamp, services)
      return services
    }
  }

  /// The size and modification time of `config.json`.
  private static func stamp(_ configuration: Configuration) -> String {
    let attributes: [FileAttributeKey: Any]?
    do {
      attributes = try FileManager.default.attributesOfItem(atPath: configuration.configFilePath)
    } catch {
      // No config.json (yet): that is a stamp too.
      attributes = nil
    }
    let size = attributes?[.size] as? Int ?? -1
    let date = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
    let inode = attributes?[.systemFileNumber] as? Int ?? 0
    return "\(inode)/\(size)/\(date)"
  }
}
