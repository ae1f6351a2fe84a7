/// An enclosure could not be downloaded.
public enum DownloadError: NewsError, Equatable {
  /// The server answered with an error status.
  case status(url: String, code: Int)
  /// The file is larger than `NEWS_DOWNLOAD_MAX` (said by the server, or counted as it came).
  case tooLarge(url: String, limit: Int64)
  /// The transfer stopped part way: what came is kept, and the next run resumes from it.
  case interrupted(url: String, reason: String, kept: Int64, part: String)
  /// The file could not be written.
  case write(path: String, reason: String)
  /// The enclosure's address is not an `http` or `https` URL.
  case unsupported(url: String)
  /// Another `news download` is writing this file's part now.
  case busy(path: String)

  public var message: String {
    switch self {
    case .status(let url, let code):
      return "\(url) answered \(HTTPError.status(code))"
    case .tooLarge(let url, let limit):
      return "\(url) is larger than \(ByteCount.limit(limit)) (NEWS_DOWNLOAD_MAX): not downloaded"
    case .interrupted(let url, let reason, let kept, let part):
      return
        "\(url): \(reason); \(ByteCount.text(kept)) kept in \(part), run the command again to resume"
    case .write(let path, let reason):
      return "cannot write \(path): \(reason)"
    case .unsupported(let url):
      return "\(url) is not an http or https URL: not downloaded"
    case .busy(let path):
      return "\(path) is being downloaded by another news process; try again when it ends"
    }
  }

  public var exitCode: ExitCode {
    switch self {
    case .status: .unavailable
    case .tooLarge, .unsupported: .dataError
    case .interrupted, .busy: .temporaryFailure
    case .write: .ioError
    }
  }

  public var isOutage: Bool {
    switch self {
    case .status, .interrupted: true
    case .tooLarge, .write, .unsupported, .busy: false
    }
  }
}
