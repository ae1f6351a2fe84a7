/// An article reference that names nothing, or too much.
public enum LookupError: NewsError, Equatable {
  /// Nothing stored has this id or prefix.
  case notFound(String)
  /// Several stored ids start with this prefix.
  case ambiguous(String, candidates: [String])
  /// A number was given, but no list has been shown yet.
  case noListing
  /// The last list is shorter than the number given.
  case indexOutOfRange(index: Int, count: Int)
  /// A URL with nothing after its scheme.
  case notAnArticleURL(String)

  public var message: String {
    switch self {
    case .notFound(let reference):
      return "no article '\(reference)'"
    case .ambiguous(let reference, let candidates):
      let shown = candidates.prefix(10).joined(separator: ", ")
      let more = candidates.count > 10 ? ", … (\(candidates.count - 10) more)" : ""
      return
        "'\(reference)' matches \(candidates.count) articles: \(shown)\(more); type more of the id"
    case .noListing:
      return "no list has been shown yet"
    case .indexOutOfRange(let index, let count):
      let held =
        switch count {
        case 0: "was empty"
        case 1: "has 1 article"
        default: "has \(count) articles"
        }
      return "the last list \(held); there is no number \(index)"
    case .notAnArticleURL(let reference):
      return "'\(reference)' is not an article's URL: it has nothing after the scheme"
    }
  }

  public var exitCode: ExitCode { .usage }

  public var advice: Advice? {
    switch self {
    case .notFound, .noListing: .listArticlesFirst
    default: nil
    }
  }
}
