#if canImport(Glibc)
  import Glibc
#endif

/// How many heaps glibc's allocator may keep for `news serve`'s threads. Each thread answering a
/// request would otherwise get a heap of its own (up to eight a core), and what one frees stays
/// in it: 16 apps at once left 13 MB more at the peak at 100,000 articles (102 MB against 89 MB
/// with two heaps, at the same rate of answers). `MALLOC_ARENA_MAX` set by the user wins.
enum MallocArenas {
  /// The heaps allowed: none set when the user's `MALLOC_ARENA_MAX` says (glibc reads it
  /// itself), else two.
  static func limit(environment: [String: String]) -> Int32? {
    environment["MALLOC_ARENA_MAX"] == nil ? 2 : nil
  }

  /// Sets the limit, before the server's threads start. glibc's `mallopt` is looked up by name
  /// (`<malloc.h>` is not in Swift's Glibc module); elsewhere nothing is done. Returns whether
  /// it was called (what it answers is not said: AddressSanitizer's stands in for it and
  /// answers 0, glibc's answers 1 even to a setting it does not know).
  @discardableResult
  static func apply(environment: [String: String]) -> Bool {
    guard let limit = limit(environment: environment) else { return false }
    #if canImport(Glibc)
      typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
      guard let symbol = dlsym(nil, "mallopt") else { return false }
      // M_ARENA_MAX in <malloc.h>.
      let arenaMaximum: Int32 = -8
      _ = unsafeBitCast(symbol, to: Mallopt.self)(arenaMaximum, limit)
      return true
    #else
      return false
    #endif
  }
}
