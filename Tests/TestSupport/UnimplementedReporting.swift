import FeedParsing
import NewsCore
import Testing

/// Makes a use of an unimplemented dependency a failure of the test that made it (named), not a
/// crash of the whole test process.
public enum UnimplementedReporting {
  /// Installs the reporter, once; every harness touches it.
  public static let installed: Void = UnimplementedDependency.reportUses { dependency in
    Issue.record(Comment(rawValue: dependency.description))
  }
}
