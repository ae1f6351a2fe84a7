/// An error that knows how to explain itself to the person at the keyboard.
///
/// Every domain of `NewsCore` has one enum conforming to this protocol; the command line maps them
/// once, at the top level, to a one-line message on stderr and an exit code.
public protocol NewsError: Error, Sendable {
  /// One line, written for a user: what went wrong.
  var message: String { get }
  /// What to do about it, when there is something: the command line words it after the message.
  var advice: Advice? { get }
  /// The process exit code this error ends the command with.
  var exitCode: ExitCode { get }
  /// Whether the failure is the network's or the service's, so that stored data may stand in for
  /// it, rather than something the user must fix (a refused key, a bad query).
  var isOutage: Bool { get }
}

extension NewsError {
  /// Most failures are not outages.
  public var isOutage: Bool { false }
  /// Most failures carry no advice beyond their message.
  public var advice: Advice? { nil }
}
