import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A program a hook (or an article command) runs: `/bin/sh -c <command>`, started with only its
/// standard input (a pipe), output and error (`/dev/null`) open, in a process group of its own,
/// with the default signal dispositions. Nothing of `news` leaks into it: no other descriptor
/// (Foundation's `Process` hands a child the socket it learns of exits by, so `news` would wait
/// for the last of the hook's descendants), no ignored `SIGPIPE`.
struct ChildProcess: Sendable {
  /// The shell's process id, which is also its group's.
  let pid: pid_t
  /// The write end of its standard input.
  let input: Int32
  /// The read ends of its standard output and error, when captured (-1 otherwise).
  var output: Int32 = -1
  var errors: Int32 = -1

  /// Why it could not start.
  struct Failure: Error {
    var reason: String
  }

  /// Starts `/bin/sh -c command` with `environment`; with `capturing`, its standard output and
  /// error are pipes read through ``output`` and ``errors`` (else `/dev/null`).
  static func spawn(shell command: String, environment: [String: String], capturing: Bool = false)
    throws(Failure) -> ChildProcess
  {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw Failure(reason: String(cString: strerror(errno))) }
    // The write end stays in `news` only; the read end becomes the child's standard input.
    _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
    _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
    defer { close(ends[0]) }
    // The captured output's pipes: the write ends become the child's 1 and 2.
    var outputEnds: [Int32] = [-1, -1]
    var errorEnds: [Int32] = [-1, -1]
    if capturing {
      guard pipe(&outputEnds) == 0 else {
        close(ends[1])
        throw Failure(reason: String(cString: strerror(errno)))
      }
      guard pipe(&errorEnds) == 0 else {
        close(ends[1])
        close(outputEnds[0])
        close(outputEnds[1])
        throw Failure(reason: String(cString: strerror(errno)))
      }
      for end in outputEnds + errorEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    }
    defer {
      if capturing {
        close(outputEnds[1])
        close(errorEnds[1])
      }
    }

    // The C library's records in memory allocated for them (their whole size, whatever the
    // compiler would lay out for a Swift variable of the imported type).
    #if canImport(Glibc)
      let actions = UnsafeMutablePointer<posix_spawn_file_actions_t>.allocate(capacity: 1)
      let attributes = UnsafeMutablePointer<posix_spawnattr_t>.allocate(capacity: 1)
    #else
      let actions = UnsafeMutablePointer<posix_spawn_file_actions_t?>.allocate(capacity: 1)
      let attributes = UnsafeMutablePointer<posix_spawnattr_t?>.allocate(capacity: 1)
    #endif
    let signalSets = UnsafeMutablePointer<sigset_t>.allocate(capacity: 2)
    defer {
      actions.deallocate()
      attributes.deallocate()
      signalSets.deallocate()
    }
    posix_spawn_file_actions_init(actions)
    posix_spawnattr_init(attributes)
    defer {
      posix_spawn_file_actions_destroy(actions)
      posix_spawnattr_destroy(attributes)
    }
    posix_spawn_file_actions_adddup2(actions, ends[0], 0)
    if capturing {
      posix_spawn_file_actions_adddup2(actions, outputEnds[1], 1)
      posix_spawn_file_actions_adddup2(actions, errorEnds[1], 2)
    } else {
      posix_spawn_file_actions_addopen(actions, 1, "/dev/null", O_WRONLY, 0)
      posix_spawn_file_actions_adddup2(actions, 1, 2)
    }
    var flags = Int32(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
    #if canImport(Glibc)
      // Every descriptor past the three is closed in the child: glibc's closefrom action (2.34
      // and later, looked up as Swift does not import it), else each one open now.
      if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
        typealias CloseFrom =
          @convention(c) (
            UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32
          ) -> Int32
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(actions, 3)
      } else {
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap(Int32.init) where descriptor > 2 {
          posix_spawn_file_actions_addclose(actions, descriptor)
        }
      }
    #else
      // Only the descriptors the actions name are inherited.
      flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
    #endif
    posix_spawnattr_setpgroup(attributes, 0)
    let mask = signalSets
    let defaults = signalSets + 1
    sigemptyset(mask)
    posix_spawnattr_setsigmask(attributes, mask)
    sigemptyset(defaults)
    for signal in [SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGCHLD, SIGTSTP, SIGTTIN, SIGTTOU] {
      sigaddset(defaults, signal)
    }
    posix_spawnattr_setsigdefault(attributes, defaults)
    posix_spawnattr_setflags(attributes, Int16(flags))

    let arguments = ["/bin/sh", "-c", command]
    let variables = environment.map { "\($0.key)=\($0.value)" }
    var pid: pid_t = 0
    let status = withCStrings(arguments) { argv in
      withCStrings(variables) { envp in
        posix_spawn(&pid, "/bin/sh", actions, attributes, argv, envp)
      }
    }
    guard status == 0 else {
      close(ends[1])
      if capturing {
        close(outputEnds[0])
        close(errorEnds[0])
      }
      throw Failure(reason: String(cString: strerror(status)))
    }
    var child = ChildProcess(pid: pid, input: ends[1])
    if capturing { (child.output, child.errors) = (outputEnds[0], errorEnds[0]) }
    return child
  }

  /// Kills its whole group (the shell and whatever it started in the group) with `SIGKILL`.
  func killGroup() {
    kill(-pid, SIGKILL)
  }

  /// How the shell ended, awaited on a thread of its own (never its descendants).
  func exit() async -> Termination {
    await withCheckedContinuation { continuation in
      let pid = pid
      Thread.detachNewThread {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        continuation.resume(returning: Termination(waitStatus: status))
      }
    }
  }

  /// How a process ended: its exit status, or the signal that ended it.
  struct Termination: Sendable, Equatable {
    var status: Int32
    var signalled: Bool

    init(waitStatus: Int32) {
      // WIFSIGNALED and friends are macros Swift does not import: the status's low seven bits
      // are the signal (0 for an exit), the next eight the exit status.
      let signal = waitStatus & 0x7F
      signalled = signal != 0 && signal != 0x7F
      status = signalled ? signal : (waitStatus >> 8) & 0xFF
    }
  }

  /// Calls `body` with `strings` as a NULL-terminated array of C strings.
  private static func withCStrings<T>(
    _ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> T
  ) -> T {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return body(pointers)
  }
}
