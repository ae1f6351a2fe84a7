import FeedParsing
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs the command of an `exec:` or `filter:` source (newsboat's source scripts) as hooks run:
/// `/bin/sh -c`, the hooks' environment (allowed variables only), a process group of its own
/// killed when the shell ends or its time (`NEWS_HOOK_TIMEOUT`) is up. Its standard output is
/// the source's document, at most ``maximumBytes``; a non-zero exit, an empty output, or one too
/// large fails the source, saying the last line of what the command wrote to standard error.
public struct SourceCommandRunner: Sendable {
  let environment: [String: String]
  let deadline: Deadline
  /// The most bytes of output read (the feed size limit).
  let maximumBytes: Int

  /// Creates a runner; its commands get of `environment` what hooks get (and the variables
  /// `passing` names), each within `deadline`.
  public init(
    environment: [String: String], deadline: Deadline, passing: [String] = [],
    maximumBytes: Int = 10 << 20
  ) {
    self.environment = ChildEnvironment.forHooks(environment, passing: passing)
    self.deadline = deadline
    self.maximumBytes = maximumBytes
  }

  /// What `command` prints given `input` on its standard input (a `filter:` source's fetched
  /// document; nothing for `exec:`).
  ///
  /// - Throws: ``FeedError/command(source:detail:)``.
  public func output(of command: String, input: Data = Data(), source: String) async throws
    -> Data
  {
    let child: ChildProcess
    do {
      child = try ChildProcess.spawn(shell: command, environment: environment, capturing: true)
    } catch {
      throw FeedError.command(
        source: source, detail: "its command could not start: \(error.reason)")
    }
    child.write(input)
    async let printed = Self.drain(child.output, keeping: maximumBytes + 1, tail: false)
    async let complaint = Self.drain(child.errors, keeping: 4_096, tail: true)
    let termination: ChildProcess.Termination
    do {
      termination = try await child.exit(within: deadline)
    } catch {
      _ = await (printed, complaint)
      throw FeedError.command(
        source: source,
        detail: "its command took longer than \(deadline.limit.secondsText) s "
          + "(\(deadline.variable)) and was stopped")
    }
    // Whatever the shell left running in its group goes with it: the pipes then end.
    child.killGroup()
    let (output, errors) = await (printed, complaint)
    let said = Self.lastLine(errors)
    guard !termination.signalled, termination.status == 0 else {
      let how = termination.signalled ? "signal" : "exit"
      throw FeedError.command(
        source: source,
        detail: "its command failed (\(how) \(termination.status))" + (said.map { ": " + $0 } ?? "")
      )
    }
    guard output.count <= maximumBytes else {
      throw FeedError.command(
        source: source, detail: "its command printed more than \(maximumBytes) bytes")
    }
    guard !output.isEmpty else {
      throw FeedError.command(
        source: source, detail: "its command printed nothing" + (said.map { ": " + $0 } ?? ""))
    }
    return output
  }

  /// The last non-empty line of `data`, made safe to print, at most 200 characters.
  static func lastLine(_ data: Data) -> String? {
    let text = String(decoding: data, as: UTF8.self)
    guard
      let line = text.split(whereSeparator: \.isNewline).last(where: {
        !$0.trimmingCharacters(in: .whitespaces).isEmpty
      })
    else { return nil }
    return String(TerminalSanitizer.clean(String(line)).prefix(200))
  }

  /// Reads `descriptor` to its end on a thread of its own and closes it: the first `keeping`
  /// bytes (or, with `tail`, the last), the rest read and dropped so that the writer never
  /// blocks.
  static func drain(_ descriptor: Int32, keeping: Int, tail: Bool) async -> Data {
    await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        var kept = Data()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 1)
        defer {
          buffer.deallocate()
          close(descriptor)
        }
        while true {
          let count = read(descriptor, buffer.baseAddress, buffer.count)
          if count < 0, errno == EINTR { continue }
          guard count > 0 else { break }
          let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
          if tail {
            kept.append(contentsOf: chunk)
            if kept.count > keeping { kept.removeFirst(kept.count - keeping) }
          } else if kept.count < keeping {
            kept.append(contentsOf: chunk.prefix(keeping - kept.count))
          }
        }
        continuation.resume(returning: kept)
      }
    }
  }
}
