import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A program `news` starts: a hook's or a source's shell (`/bin/sh -c <command>`), a browser, a
/// player, `tput`. Started with `posix_spawn`, with standard input, output and error as
/// ``Streams`` says, every other descriptor closed, an empty signal mask and the default
/// dispositions of the signals `news` may catch or ignore. Nothing of `news` leaks into it:
/// no other descriptor (Foundation's `Process` hands a child the socket it learns of exits by,
/// so `news` would wait for the last of the child's descendants), no ignored `SIGPIPE`,
/// `SIGTSTP` or `SIGWINCH` (which a full-screen browse ignores for itself).
package struct ChildProcess: Sendable {
  /// Its process id (also its group's, when started in a group of its own).
  package let pid: pid_t
  /// The write end of its standard input, when a pipe (-1 otherwise).
  package var input: Int32 = -1
  /// The read ends of its standard output and error, when pipes (-1 otherwise).
  package var output: Int32 = -1
  package var errors: Int32 = -1

  /// Why it could not start.
  package struct Failure: Error {
    package var reason: String
  }

  /// What one of its standard streams is.
  package enum Stream: Sendable, Equatable {
    /// `/dev/null`.
    case null
    /// A pipe, whose other end `news` holds (``input``, ``output``, ``errors``).
    case pipe
    /// The descriptor `news` has: the terminal, for a program the user works with.
    case inherited
    /// A copy of this descriptor of `news`'s (a file, a pseudo-terminal).
    case descriptor(Int32)
  }

  /// Its standard input, output and error.
  package struct Streams: Sendable {
    package var input: Stream
    package var output: Stream
    package var errors: Stream

    package init(input: Stream, output: Stream, errors: Stream) {
      (self.input, self.output, self.errors) = (input, output, errors)
    }

    /// A hook's: its input written to it, what it prints dropped.
    package static let hook = Streams(input: .pipe, output: .null, errors: .null)
    /// A source command's: its input written to it, its output and error read.
    package static let captured = Streams(input: .pipe, output: .pipe, errors: .pipe)
    /// A browser's or a player's: the terminal, as `news` has it.
    package static let terminal = Streams(input: .inherited, output: .inherited, errors: .inherited)
  }

  /// Starts `/bin/sh -c command` with `environment` in a process group of its own; with
  /// `capturing`, its standard output and error are pipes read through ``output`` and
  /// ``errors`` (else `/dev/null`). Its standard input is a pipe written through ``input``.
  static func spawn(shell command: String, environment: [String: String], capturing: Bool = false)
    throws(Failure) -> ChildProcess
  {
    try spawn(
      program: "/bin/sh", arguments: ["-c", command], environment: environment,
      streams: capturing ? .captured : .hook, ownGroup: true)
  }

  /// Starts `program` (a path) with `arguments` (its `argv` after the program's own path) and
  /// exactly `environment`. In a process group of its own with `ownGroup` (its group can then
  /// be killed whole); else in `news`'s, which a program using the terminal needs: only the
  /// terminal's foreground group may read it, and a browser started in a group of its own
  /// stops at its first key read. It starts in `directory` when one is given, else in `news`'s.
  package static func spawn(
    program: String, arguments: [String], environment: [String: String], streams: Streams,
    ownGroup: Bool, directory: String? = nil
  ) throws(Failure) -> ChildProcess {
    // Each piped stream's two ends: the child's is dup'ed to 0, 1 or 2, then closed here.
    var pipes: [(child: Int32, parent: Int32)?] = []
    func closeAll() {
      for ends in pipes.compactMap({ $0 }) {
        close(ends.child)
        close(ends.parent)
      }
    }
    for (index, stream) in [streams.input, streams.output, streams.errors].enumerated() {
      guard stream == .pipe else {
        pipes.append(nil)
        continue
      }
      var ends: [Int32] = [-1, -1]
      guard pipe(&ends) == 0 else {
        let reason = String(cString: strerror(errno))
        closeAll()
        throw Failure(reason: reason)
      }
      for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
      // Standard input reads the pipe's first end; output and error write its second.
      pipes.append(index == 0 ? (ends[0], ends[1]) : (ends[1], ends[0]))
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
    for (descriptor, stream) in [streams.input, streams.output, streams.errors].enumerated() {
      let target = Int32(descriptor)
      switch stream {
      case .pipe:
        if let ends = pipes[descriptor] {
          posix_spawn_file_actions_adddup2(actions, ends.child, target)
        }
      case .null:
        posix_spawn_file_actions_addopen(
          actions, target, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
      case .inherited:
        #if canImport(Darwin)
          posix_spawn_file_actions_addinherit_np(actions, target)
        #endif
        break
      case .descriptor(let source):
        posix_spawn_file_actions_adddup2(actions, source, target)
      }
    }
    if let directory {
      // glibc 2.29 and later, macOS 10.15 and later: looked up, as Swift may not import it.
      #if canImport(Glibc)
        let everywhere: UnsafeMutableRawPointer? = nil
      #else
        let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
      #endif
      guard let symbol = dlsym(everywhere, "posix_spawn_file_actions_addchdir_np") else {
        closeAll()
        throw Failure(reason: "this system cannot start a program in another directory")
      }
      typealias ChangeDirectory =
        @convention(c) (UnsafeMutableRawPointer, UnsafePointer<CChar>) -> Int32
      _ = unsafeBitCast(symbol, to: ChangeDirectory.self)(
        UnsafeMutableRawPointer(actions), directory)
    }
    var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
    if ownGroup { flags |= Int32(POSIX_SPAWN_SETPGROUP) }
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
    for signal in Self.defaultSignals { sigaddset(defaults, signal) }
    posix_spawnattr_setsigdefault(attributes, defaults)
    posix_spawnattr_setflags(attributes, Int16(flags))

    let argv = [program] + arguments
    let variables = environment.map { "\($0.key)=\($0.value)" }
    var pid: pid_t = 0
    let status = withCStrings(argv) { argv in
      withCStrings(variables) { envp in
        posix_spawn(&pid, program, actions, attributes, argv, envp)
      }
    }
    for ends in pipes.compactMap({ $0 }) { close(ends.child) }
    guard status == 0 else {
      for ends in pipes.compactMap({ $0 }) { close(ends.parent) }
      throw Failure(reason: String(cString: strerror(status)))
    }
    var child = ChildProcess(pid: pid)
    child.input = pipes[0]?.parent ?? -1
    child.output = pipes[1]?.parent ?? -1
    child.errors = pipes[2]?.parent ?? -1
    return child
  }

  /// The signals a child starts with at their default disposition, whatever `news` does with
  /// them (catches, or ignores: Foundation ignores `SIGPIPE`, a full-screen browse `SIGTSTP`,
  /// `SIGWINCH` and `SIGCONT`, and `news` ignores `SIGINT` and `SIGQUIT` while a program has
  /// the terminal).
  package static let defaultSignals: [Int32] = [
    SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGCHLD, SIGTSTP, SIGTTIN, SIGTTOU, SIGWINCH,
    SIGCONT, SIGALRM, SIGUSR1, SIGUSR2,
  ]

  /// Kills its whole group (the shell and whatever it started in the group) with `SIGKILL`;
  /// only for a child started in a group of its own.
  package func killGroup() {
    kill(-pid, SIGKILL)
  }

  /// Writes `data` to its standard input, then closes it, on a thread of its own with `SIGPIPE`
  /// blocked there: a child that does not read its input must not hold the writer, nor kill it
  /// (a write to a child that has exited fails with `EPIPE`, and the signal goes with the thread).
  package func write(_ data: Data) {
    let writer = input
    Thread.detachNewThread {
      var blocked = sigset_t()
      sigemptyset(&blocked)
      sigaddset(&blocked, SIGPIPE)
      pthread_sigmask(SIG_BLOCK, &blocked, nil)
      data.withUnsafeBytes { bytes in _ = FileDescriptor.writeAll(writer, bytes) }
      close(writer)
    }
  }

  /// How it ended, within `deadline`. Past it (or when the task is cancelled) its group is
  /// killed (`SIGKILL`: a shell may ignore `SIGTERM`) and its shell's end awaited, so that
  /// nothing is left running, and ``DeadlineError`` is thrown; only for a child started in a
  /// group of its own.
  package func exit(within deadline: Deadline) async throws -> Termination {
    let ended = Task { await exit() }
    do {
      return try await deadline.run {
        await withTaskCancellationHandler {
          await ended.value
        } onCancel: {
          killGroup()
        }
      }
    } catch {
      killGroup()
      _ = await ended.value
      throw error
    }
  }

  /// How it ended, awaited on a thread of its own (never its descendants).
  package func exit() async -> Termination {
    await withCheckedContinuation { continuation in
      let child = self
      Thread.detachNewThread {
        continuation.resume(returning: child.waitForExit())
      }
    }
  }

  /// How it ended, waited for on the calling thread (never its descendants).
  ///
  /// With `followingStops`, a stop of the child (Ctrl-Z in a program that has the terminal)
  /// stops `news` too, so that the shell gets its prompt back, and the child is continued with
  /// `news`: for a `news` that ignores `SIGTSTP` itself (a full-screen browse), which would
  /// otherwise wait for a stopped child for ever. A `news` that does not ignore it stops with
  /// its child, as the terminal signals their whole group.
  package func waitForExit(followingStops: Bool = false) -> Termination {
    var status: Int32 = 0
    while true {
      guard waitpid(pid, &status, followingStops ? WUNTRACED : 0) != -1 else {
        if errno == EINTR { continue }
        break
      }
      // WIFSTOPPED, a macro Swift does not import: 0x7F in the low byte.
      guard followingStops, status & 0xFF == 0x7F else { break }
      raise(SIGSTOP)
      kill(pid, SIGCONT)
    }
    return Termination(waitStatus: status)
  }

  /// How a process ended: its exit status, or the signal that ended it.
  package struct Termination: Sendable, Equatable {
    /// The exit status, or the signal's number.
    package var status: Int32
    /// Whether a signal ended it.
    package var signalled: Bool

    package init(waitStatus: Int32) {
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
