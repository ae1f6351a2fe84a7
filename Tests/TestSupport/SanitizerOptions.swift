import Foundation

/// The sanitizers' options of the test process (`ASAN_OPTIONS`, `LSAN_OPTIONS`, `UBSAN_OPTIONS`),
/// for a child started with an environment of its own: CI runs the tests that touch unsafe
/// pointers, `readdir`, sockets and the terminal under AddressSanitizer with
/// `ASAN_OPTIONS=detect_leaks=0` (LeakSanitizer reports Foundation's own allocations), and a
/// `news` spawned without it would fail on exit. The same for `.ci/close-check.c`, which CI
/// preloads (`LD_PRELOAD`, `NEWS_CLOSE_CHECK_LOG`) to catch a descriptor closed twice, in the
/// test process and in the `news` it starts.
public enum SanitizerOptions {
  /// The variables to add to a child's environment (none outside a checked run).
  public static var inherited: [String: String] {
    ProcessInfo.processInfo.environment.filter {
      ["ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS", "LD_PRELOAD", "NEWS_CLOSE_CHECK_LOG"]
        .contains($0.key)
    }
  }
}
