import Foundation
import Synchronization

/// What one run has opened: the store key, loaded once, and one ``EncryptedStore`` per directory,
/// so that its key is verified once however many services use it (`news feed` and `news sync`
/// use both stores through several services).
public final class OpenedStores: Sendable {
  private struct State {
    var key: StoreKey?
    var stores: [String: EncryptedStore] = [:]
    var keyLoads = 0
  }

  private let state = Mutex(State())
  /// Who is told of a damaged side file (``reportDamage(to:)``).
  private let damageHandler = Mutex<(@Sendable (StoreDamage) -> Void)?>(nil)

  /// Tells `handler` of every damaged side file the run's stores meet, once each, as met.
  public func reportDamage(to handler: @escaping @Sendable (StoreDamage) -> Void) {
    damageHandler.withLock { $0 = handler }
  }

  /// Tells the handler of a damaged side file.
  func damaged(_ damage: StoreDamage) {
    let handler = damageHandler.withLock { $0 }
    handler?(damage)
  }

  /// Nothing opened yet.
  public init() {}

  /// The key, loaded by `load` the first time only.
  func key(_ load: () throws -> StoreKey) throws -> StoreKey {
    try state.withLock { state in
      if let key = state.key { return key }
      let key = try load()
      state.keyLoads += 1
      state.key = key
      return key
    }
  }

  /// The store of `directory`, made the first time only.
  func store(at directory: URL, make: () -> EncryptedStore) -> EncryptedStore {
    state.withLock { state in
      let path = directory.standardizedFileURL.path
      if let store = state.stores[path] { return store }
      let store = make()
      state.stores[path] = store
      return store
    }
  }

  /// How many times the key was loaded (once a run; tests count it).
  var keyLoads: Int { state.withLock { $0.keyLoads } }

  /// How many stores were opened (one per directory).
  var storeCount: Int { state.withLock { $0.stores.count } }
}
