/// The numbers of libcurl's options, information codes and results that ``CurlHTTPClient`` uses:
/// part of libcurl's stable ABI (curl/curl.h), declared here because its headers are not on every
/// machine.
enum CurlOption {
  static let url: Int32 = 10002
  static let writeData: Int32 = 10001
  static let writeFunction: Int32 = 20011
  static let headerData: Int32 = 10029
  static let headerFunction: Int32 = 20079
  static let httpHeader: Int32 = 10023
  static let acceptEncoding: Int32 = 10102
  static let noSignal: Int32 = 99
  static let timeoutMilliseconds: Int32 = 155
  static let connectTimeoutMilliseconds: Int32 = 156
  static let protocols: Int32 = 181
  static let customRequest: Int32 = 10036
  static let postFieldSize: Int32 = 60
  static let copyPostFields: Int32 = 10165
  static let noBody: Int32 = 44
  /// `CURLOPT_LOW_SPEED_LIMIT` and `CURLOPT_LOW_SPEED_TIME`: a streamed transfer slower than
  /// the limit (bytes a second) for that many seconds is stopped (an idle timeout).
  static let lowSpeedLimit: Int32 = 19
  static let lowSpeedTime: Int32 = 20
  static let httpGet: Int32 = 80
  /// `CURLOPT_PROXY`: set for every request ("" for none), so that libcurl reads no variable
  /// of its own (``ProxySettings`` decides).
  static let proxy: Int32 = 10004

  /// `CURLPROTO_HTTP | CURLPROTO_HTTPS`: nothing else is ever spoken.
  static let httpAndHTTPS = 1 | 2
  /// `CURLINFO_RESPONSE_CODE`.
  static let responseCode: Int32 = 0x20_0002
  /// `CURLINFO_TOTAL_TIME_T`: a transfer's whole time, in microseconds (libcurl 7.61).
  static let totalMicroseconds: Int32 = 0x60_0032
}
