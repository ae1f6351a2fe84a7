import CCurl
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One request on its way through libcurl: its handle, what has arrived, and the caller waiting.
///
/// Made by the caller's task; from the moment it is handed to ``CurlLoop`` only the loop's thread
/// touches it (libcurl calls the callbacks below from `curl_multi_perform`, on that thread), but
/// for ``cancel()``, which only raises a flag.
final class CurlTransfer: @unchecked Sendable {
  /// What came back: the final status, the headers of the last response, the body.
  struct Answer {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: Data
    /// How long the transfer took, by libcurl's clock (`CURLINFO_TOTAL_TIME_T`), in seconds.
    var seconds: Double = 0
  }

  let easy: UnsafeMutableRawPointer
  private var headerList: UnsafeMutableRawPointer?
  private let host: String
  /// Where the request goes.
  private let url: URL
  private let maximumBodySize: Int
  private var continuation: CheckedContinuation<Answer, any Error>?
  private var headers: [(name: String, value: String)] = []
  private var body = Data()
  private var failure: (any Error)?
  private let cancelled = Atomic(false)
  /// Where a streamed body goes (``HTTPClient/stream(_:into:)``), instead of `body`.
  private let stream: BodyStream?
  /// The status of the response whose headers are arriving.
  private var status = 0
  /// Whether `stream` was given the head of the response whose body is arriving.
  private var began = false

  /// The proxy the request goes through, if any (named when it cannot be reached).
  let proxy: ProxySettings.Proxy?

  /// Prepares `request`, through `proxy` when there is one; bodies past `maximumBodySize` are
  /// refused as they arrive, decoded. With `stream`, the body goes there as it arrives instead
  /// (uncapped, not compressed) and the timeout is the longest wait for a byte.
  init(
    _ request: OutgoingRequest, maximumBodySize: Int, proxy: ProxySettings.Proxy? = nil,
    stream: BodyStream? = nil
  ) throws {
    let url = request.url
    guard let easy = news_curl_easy_take() else {
      throw URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "libcurl could not start"])
    }
    self.easy = easy
    self.host = url.host ?? "?"
    self.url = url
    self.maximumBodySize = maximumBodySize
    self.proxy = proxy
    self.stream = stream
    let user = Unmanaged.passUnretained(self).toOpaque()
    _ = news_curl_setopt_long(easy, CurlOption.noSignal, 1)
    _ = news_curl_setopt_long(easy, CurlOption.protocols, CurlOption.httpAndHTTPS)
    _ = news_curl_setopt_pointer(easy, CurlOption.url, url.absoluteString)
    _ = news_curl_setopt_pointer(easy, CurlOption.proxy, proxy?.url ?? "")
    if stream == nil {
      // Every encoding this libcurl decodes is offered, and decoded before the size cap counts
      // it. A stream (a file, resumed by byte ranges) asks for the bytes as they are.
      _ = news_curl_setopt_pointer(easy, CurlOption.acceptEncoding, "")
    }
    _ = news_curl_setopt_callback(easy, CurlOption.writeFunction, curlWriteBody)
    _ = news_curl_setopt_pointer(easy, CurlOption.writeData, user)
    _ = news_curl_setopt_callback(easy, CurlOption.headerFunction, curlWriteHeader)
    _ = news_curl_setopt_pointer(easy, CurlOption.headerData, user)
    // To the millisecond (``CurlHTTPClient/timesOutPrecisely``), never zero: libcurl reads 0
    // as no limit.
    let timeout = max(Int((request.timeout * 1000).rounded(.up)), 1)
    if stream == nil {
      _ = news_curl_setopt_long(easy, CurlOption.timeoutMilliseconds, timeout)
    } else {
      _ = news_curl_setopt_long(easy, CurlOption.lowSpeedLimit, 1)
      _ = news_curl_setopt_long(easy, CurlOption.lowSpeedTime, max((timeout + 999) / 1000, 1))
    }
    _ = news_curl_setopt_long(easy, CurlOption.connectTimeoutMilliseconds, timeout)
    let method = request.method
    if method == "HEAD" {
      _ = news_curl_setopt_long(easy, CurlOption.noBody, 1)
    } else if method != "GET" {
      let payload = request.body ?? Data()
      _ = news_curl_setopt_long(easy, CurlOption.postFieldSize, payload.count)
      payload.withUnsafeBytes { bytes in
        // Copied by libcurl; an empty body still needs a valid pointer.
        _ = news_curl_setopt_pointer(
          easy, CurlOption.copyPostFields, bytes.baseAddress ?? UnsafeRawPointer(easy))
      }
      _ = news_curl_setopt_pointer(easy, CurlOption.customRequest, method)
    }
    // "Expect:" turns off libcurl's 100-continue handshake, which only adds a round trip.
    var lines = ["Expect:"]
    for (name, value) in request.headers {
      // A header with an empty value is sent as `Name;` (libcurl's rule for "Name:" is removal).
      lines.append(value.isEmpty ? "\(name);" : "\(name): \(value)")
    }
    for line in lines {
      // A line with a line break would inject a header of its own: such a header is not sent.
      // (Looked for in its bytes: a header's characters, one by one, were a fiftieth of a
      // refresh where every source answers 304.)
      guard !Self.breaksLine(line) else { continue }
      headerList = news_curl_slist_append(headerList, line)
    }
    _ = news_curl_setopt_pointer(easy, CurlOption.httpHeader, headerList)
  }

  /// Whether `line` holds a line break: of ASCII (line feed, vertical tab, form feed, carriage
  /// return) or, in a line that is not all ASCII, of Unicode (U+0085, U+2028, U+2029).
  static func breaksLine(_ line: String) -> Bool {
    var ascii = true
    for byte in line.utf8 {
      if (0x0A...0x0D).contains(byte) { return true }
      if byte >= 0x80 { ascii = false }
    }
    return !ascii && line.contains(where: \.isNewline)
  }

  deinit {
    news_curl_easy_give(easy)
    if let headerList { news_curl_slist_free_all(headerList) }
  }

  /// Waits for the answer; ``CurlLoop`` resumes it exactly once.
  func run(on loop: CurlLoop) async throws -> Answer {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        self.continuation = continuation
        loop.start(self)
      }
    } onCancel: {
      cancelled.store(true, ordering: .sequentiallyConsistent)
      loop.cancel(self)
    }
  }

  /// Whether the caller gave up (read by the loop before it starts the transfer).
  var isCancelled: Bool { cancelled.load(ordering: .sequentiallyConsistent) }

  /// Ends the wait with `error` (on the loop's thread).
  func finish(throwing error: any Error) {
    continuation?.resume(throwing: error)
    continuation = nil
  }

  /// Ends the wait with libcurl's `result` for the transfer (on the loop's thread).
  func finish(result: Int32) {
    if let failure {
      finish(throwing: failure)
    } else if result != 0, let proxy, [5, 7].contains(result) {
      // Not the server: the proxy in between could not be reached.
      finish(
        throwing: HTTPError.network(
          host: "the proxy \(proxy.origin) (\(proxy.variable))",
          reason: result == 5 ? "its name does not resolve" : "it refused the connection"))
    } else if result != 0 {
      finish(
        throwing: CurlResult.error(result, reason: String(cString: news_curl_strerror(result))))
    } else {
      var status = 0
      _ = news_curl_getinfo_long(easy, CurlOption.responseCode, &status)
      // A `curl_off_t`, which is a `long` where this client is used (64-bit Linux).
      var microseconds = 0
      _ = news_curl_getinfo_long(easy, CurlOption.totalMicroseconds, &microseconds)
      continuation?.resume(
        returning: Answer(
          status: status, headers: headers, body: body, seconds: Double(microseconds) / 1e6))
      continuation = nil
    }
  }

  /// A chunk of the decoded body: kept, or the transfer stopped when it would pass the cap.
  fileprivate func receive(body chunk: UnsafeRawBufferPointer) -> Int {
    if let stream { return pass(chunk, to: stream) }
    guard body.count + chunk.count <= maximumBodySize else {
      failure = HTTPError.responseTooLarge(host: host, limit: maximumBodySize)
      return 0
    }
    body.append(contentsOf: chunk)
    return chunk.count
  }

  /// A chunk of a streamed body, handed on; a redirect's body is dropped (the redirect is
  /// followed by ``CurlHTTPClient``).
  private func pass(_ chunk: UnsafeRawBufferPointer, to stream: BodyStream) -> Int {
    do {
      if !began {
        let redirect = CurlHTTPClient.redirectStatuses.contains(status)
        if redirect, headers.contains(where: { $0.name.lowercased() == "location" }) {
          return chunk.count
        }
        began = true
        try stream.begin(
          CurlHTTPClient.response(Answer(status: status, headers: headers, body: Data()), url: url))
      }
      try stream.receive(chunk)
      return chunk.count
    } catch {
      failure = error
      return 0
    }
  }

  /// One header line (a status line starts the headers of a new response: a `100 Continue`, a
  /// proxy's answer or a redirect is followed by another).
  fileprivate func receive(header line: UnsafeRawBufferPointer) -> Int {
    // Read as bytes: Foundation's trimming, three times a line, was a twentieth of a refresh
    // where every source answers 304. HTTP's white space is spaces and tabs (and the line's
    // end).
    let bytes = Self.trimmed(line[...])
    if bytes.starts(with: "HTTP/".utf8) {
      headers = []
      body = Data()
      status =
        bytes.split(separator: UInt8(ascii: " ")).dropFirst().first.flatMap {
          Int(String(decoding: $0, as: UTF8.self))
        } ?? 0
      began = false
    } else if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
      let name = String(decoding: Self.trimmed(bytes[..<colon]), as: UTF8.self)
      let value = String(decoding: Self.trimmed(bytes[(colon + 1)...]), as: UTF8.self)
      // A declared length over the cap is refused before any of the body is read.
      if stream == nil, name.lowercased() == "content-length", let length = Int(value),
        length > maximumBodySize
      {
        failure = HTTPError.responseTooLarge(host: host, limit: maximumBodySize)
        return 0
      }
      headers.append((name, value))
    }
    return line.count
  }

  /// `bytes` without the ASCII white space at its ends (tab, line feed, vertical tab, form feed,
  /// carriage return, space).
  private static func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<
    UnsafeRawBufferPointer
  > {
    func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
    var start = bytes.startIndex
    var end = bytes.endIndex
    while start < end, isSpace(bytes[start]) { start += 1 }
    while end > start, isSpace(bytes[end - 1]) { end -= 1 }
    return bytes[start..<end]
  }
}

/// libcurl's write callback: the transfer is the user data.
private let curlWriteBody:
  @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
    data, size, count, user in
    guard let user else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(user).takeUnretainedValue()
    return transfer.receive(body: UnsafeRawBufferPointer(start: data, count: size * count))
  }

/// libcurl's header callback: one whole header line at a time.
private let curlWriteHeader:
  @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
    data, size, count, user in
    guard let user else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(user).takeUnretainedValue()
    return transfer.receive(header: UnsafeRawBufferPointer(start: data, count: size * count))
  }
