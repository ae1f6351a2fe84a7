import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A libcurl result code, as the error the rest of the program already knows.
///
/// Each code a user can meet becomes the `URLError` Foundation would have reported for it, so that
/// retries (``RetryPolicy``) and messages (``HTTPTransport``) are the same whichever client sent
/// the request.
enum CurlResult {
  static func error(_ code: Int32, reason: String) -> URLError {
    switch code {
    case 1: return URLError(.unsupportedURL)
    case 3: return URLError(.badURL)
    case 5, 6: return URLError(.cannotFindHost)
    case 7: return URLError(.cannotConnectToHost)
    case 8, 52: return URLError(.badServerResponse)
    case 16, 18, 55, 56, 92: return URLError(.networkConnectionLost)
    case 28: return URLError(.timedOut)
    case 35, 58, 59, 66, 80, 83, 90, 91, 98: return URLError(.secureConnectionFailed)
    case 60: return URLError(.serverCertificateUntrusted)
    case 61: return URLError(.cannotDecodeContentData)
    default:
      return URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: reason])
    }
  }
}
