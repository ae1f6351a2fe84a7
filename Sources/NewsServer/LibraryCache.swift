import Foundation
import NewsCore
import Synchronization

/// The library, the marks and the login kept in memory between requests, each read again when
/// the store's stamp of it changed: a mark made by `news read` or browse is what the next request
/// sees. When the store's directory has not changed since a check made well after its last
/// write (every write renames a file into it), a request costs one `stat`.
final class LibraryCache: Sendable {
  /// What a request is answered from.
  struct Snapshot {
    var library: ServedLibrary
    var marks: ServedMarks
    var login: ServerLogin?
    /// Changes whenever the library or the marks do: what answers computed from them are kept
    /// for (``memo(_:for:_:)``).
    var generation: Int
  }

  private struct State {
    var library: (stamp: [Int], value: ServedLibrary)?
    var marks: (stamp: Int, value: ServedMarks)?
    var login: (stamp: Int, value: ServerLogin?)?
    /// The directory's stamp at the last full check, and whether a later write must change it.
    var directory: (stamp: Int, trusted: Bool)?
    var generation = 0
    var memos: [String: (generation: Int, value: JSONValue)] = [:]
    /// What each saved search matched, for the generation it was read at.
    var searches: [String: (generation: Int, query: String, ids: Set<String>)] = [:]
  }

  private let state = Mutex(State())
  /// The heads read from each segment: after a sync, only the segments it wrote are read.
  private let heads = SegmentHeads()
  /// The segment files the pages' articles were read from, kept decrypted for the next page.
  let files = SegmentFiles()

  /// Writes within this many seconds of a look at the directory may share its time.
  private static let clockTick = 0.05

  /// The library, marks and login as the store has them now.
  func current(_ services: NewsServices) throws -> Snapshot {
    let store = try services.articleStore()
    let directory = store.directoryStamp()
    let config = Self.configStamp(services.configuration)
    return try state.withLock { state in
      if let directory, let seen = state.directory, seen.trusted, seen.stamp == directory.stamp,
        let library = state.library, library.stamp.last == config, let marks = state.marks,
        let login = state.login
      {
        return Snapshot(
          library: library.value, marks: marks.value, login: login.value,
          generation: state.generation)
      }
      let libraryStamp = [store.articlesStamp(), config]
      if state.library?.stamp != libraryStamp {
        // The one read before goes first (unless a request still holds it): not two at once.
        state.library = nil
        state.library = (libraryStamp, try ServedLibrary.load(services, kept: heads))
        state.generation += 1
      }
      let library = state.library
      let marksStamp = store.marksStamp()
      var marks = state.marks
      if marks?.stamp != marksStamp {
        marks = (marksStamp, try ServedMarks.load(store))
        state.marks = marks
        state.generation += 1
      }
      let loginStamp = store.loginStamp()
      var login = state.login
      if login?.stamp != loginStamp {
        login = (loginStamp, try store.serverLogin())
        state.login = login
      }
      let now = services.dependencies.timing.now()
      state.directory = directory.map {
        ($0.stamp, now.timeIntervalSince($0.modified) > Self.clockTick)
      }
      guard let library, let marks else { throw CancellationError() }
      return Snapshot(
        library: library.value, marks: marks.value, login: login?.value,
        generation: state.generation)
    }
  }

  /// `make()`'s answer for `key`, computed once a generation of the library and marks.
  func memo(_ key: String, for generation: Int, _ make: () throws -> JSONValue) rethrows
    -> JSONValue
  {
    if let kept = state.withLock({ $0.memos[key] }), kept.generation == generation {
      return kept.value
    }
    let value = try make()
    state.withLock { $0.memos[key] = (generation, value) }
    return value
  }

  /// The ids the saved search `name` (`query`) matches now.
  func matches(
    of name: String, query: String, generation: Int, services: NewsServices
  ) throws -> Set<String> {
    if let kept = state.withLock({ $0.searches[name] }), kept.generation == generation,
      kept.query == query
    {
      return kept.ids
    }
    let lists = try services.lists()
    let parsed = try ArticleQuery(query, timeZone: services.dependencies.timeZone)
    let ids = Set(try lists.matching(parsed).articles.map(\.id))
    state.withLock { $0.searches[name] = (generation, query, ids) }
    return ids
  }

  /// Forgets what was read (after a change of `config.json` this process made).
  func forget() {
    state.withLock { $0 = State() }
  }

  /// The size, time and inode of `config.json`.
  private static func configStamp(_ configuration: Configuration) -> Int {
    var hasher = Hasher()
    do {
      let attributes = try FileManager.default.attributesOfItem(
        atPath: configuration.configFilePath)
      hasher.combine(attributes[.size] as? Int)
      hasher.combine((attributes[.modificationDate] as? Date)?.timeIntervalSince1970)
      hasher.combine(attributes[.systemFileNumber] as? Int)
    } catch {
      // No config.json: a stamp of its own.
      hasher.combine(-1)
    }
    return hasher.finalize()
  }
}
