import Testing

@testable import NewsCLI

/// `news serve` keeps glibc's allocator to two heaps for its threads, unless the user says.
@Suite("news serve: the allocator's heaps")
struct MallocArenasTests {
  @Test(
    "two heaps, unless MALLOC_ARENA_MAX is set (glibc then reads it itself)",
    arguments: [([:], 2), (["MALLOC_ARENA_MAX": "8"], nil), (["MALLOC_ARENA_MAX": ""], nil)]
      as [([String: String], Int32?)])
  func limit(environment: [String: String], expected: Int32?) {
    #expect(MallocArenas.limit(environment: environment) == expected)
  }

  @Test("glibc's mallopt is found and called where there is one; never when the user set the limit")
  func applied() {
    #expect(!MallocArenas.apply(environment: ["MALLOC_ARENA_MAX": "4"]))
    #if canImport(Glibc)
      #expect(MallocArenas.apply(environment: [:]))
    #else
      #expect(!MallocArenas.apply(environment: [:]))
    #endif
  }
}
