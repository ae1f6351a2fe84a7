/// A store file that does not open, met while reading around it: what it leaves out, and what
/// mends it. The command line words it as one warning.
public struct StoreDamage: Sendable, Hashable {
  /// The file's path.
  public var path: String
  /// What the run goes on without (`the full texts kept in it are left out`).
  public var leftOut: String
  /// What mends it, if anything does.
  public var advice: Advice?

  /// A damaged file at `path`, leaving `leftOut` out, mended by `advice`.
  public init(path: String, leftOut: String, advice: Advice?) {
    self.path = path
    self.leftOut = leftOut
    self.advice = advice
  }
}
