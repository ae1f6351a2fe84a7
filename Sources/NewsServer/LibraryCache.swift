import NewsCore
import Synchronization

/// The library and the marks kept in memory between requests, each read again when the store's
/// stamp of it changed: a mark made by `news read` or browse is what the next request sees,
/// and a request costs a few `stat`s when nothing changed.
final class LibraryCache: Sendable {
  private struct State {
    var library: (stamp: Int, value: ServedLibrary)?
    var marks: (stamp: Int, value: ServedMarks)?
    /// What each saved search matched, for the stamps it was read at.
    var searches: [String: (stamp: [Int], ids: Set<String>)] = [:]
  }

  private let state = Mutex(State())

  /// The library and marks as the store has them now.
  func current(_ services: NewsServices) throws -> (ServedLibrary, ServedMarks) {
    let store = try services.articleStore()
    let articlesStamp = store.articlesStamp()
    let marksStamp = store.marksStamp()
    return try state.withLock { state in
      let library: ServedLibrary
      if let kept = state.library, kept.stamp == articlesStamp {
        library = kept.value
      } else {
        library = try ServedLibrary.load(services)
        state.library = (articlesStamp, library)
      }
      let marks: ServedMarks
      if let kept = state.marks, kept.stamp == marksStamp {
        marks = kept.value
      } else {
        marks = try ServedMarks.load(store)
        state.marks = (marksStamp, marks)
      }
      return (library, marks)
    }
  }

  /// The ids the saved search `name` (`query`) matches now.
  func matches(
    of name: String, query: String, services: NewsServices
  ) throws -> Set<String> {
    let store = try services.articleStore()
    let stamp = [store.articlesStamp(), store.marksStamp(), query.hashValue]
    if let kept = state.withLock({ $0.searches[name] }), kept.stamp == stamp { return kept.ids }
    let lists = try services.lists()
    let parsed = try ArticleQuery(query, timeZone: services.dependencies.timeZone)
    let ids = Set(try lists.matching(parsed).articles.map(\.id))
    state.withLock { $0.searches[name] = (stamp, ids) }
    return ids
  }

  /// Forgets what was read (after a change this process made that no stamp shows yet).
  func forget() {
    state.withLock { $0 = State() }
  }
}
