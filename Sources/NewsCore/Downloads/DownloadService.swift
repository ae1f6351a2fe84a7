import FeedParsing
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `news download`: enclosures into files, several at once, each resumable.
///
/// A file is written to `<path>.part` as it arrives and renamed to its name once whole. What
/// the store remembers (``DownloadRecord``, by enclosure URL) is written before the first byte
/// is asked for, so that a run killed half way leaves a part the next run finds: it asks for the
/// rest with `Range` (and `If-Range`, so that a file changed on the server starts over rather
/// than being spliced); a server that ignores `Range` answers the whole file, and the part is
/// emptied first. A transfer that stops part way is resumed at once, up to the retry policy's
/// number of times. Downloads are the user's files, in the user's download directory: they
/// are not encrypted (a player must read them).
public struct DownloadService: Sendable {
  let transport: HTTPTransport
  let store: ArticleStore
  let settings: DownloadSettings
  let retryPolicy: RetryPolicy
  let timing: Timing

  /// Creates the service.
  public init(
    transport: HTTPTransport, store: ArticleStore, settings: DownloadSettings,
    retryPolicy: RetryPolicy, timing: Timing
  ) {
    self.transport = transport
    self.store = store
    self.settings = settings
    self.retryPolicy = retryPolicy
    self.timing = timing
  }

  /// The downloaded file of the enclosure at `url`, when it finished and is still there.
  public func file(of url: String) throws -> String? {
    guard let record = try store.downloads()[url], record.isFinished,
      FileManager.default.fileExists(atPath: record.path)
    else { return nil }
    return record.path
  }

  /// The newest `limit` articles carrying audio or video of each of `sources` (what
  /// `news download --source` takes without ids).
  public func latestWithMedia(sources: [String], limit: Int) throws -> [Article] {
    var chosen: [Article] = []
    for source in sources {
      let articles = try store.articles(provider: source).sorted {
        ($0.publishedAt ?? .distantPast) > ($1.publishedAt ?? .distantPast)
      }
      let enclosures = try store.enclosures(among: articles.map(\.id))
      chosen += articles.filter { (enclosures[$0.id] ?? []).contains(where: \.isMedia) }.prefix(
        limit)
    }
    return chosen
  }

  /// The jobs for the audio and video files of `articles`.
  ///
  /// - Parameters:
  ///   - onlyNew: leave out every enclosure downloaded before, even if its file was deleted
  ///     since (`--new`); otherwise one whose file is still there is reported as done, and one
  ///     whose file is gone is downloaded again.
  ///   - directory: instead of the configured directory (`--dir`).
  public func jobs(for articles: [Article], onlyNew: Bool, directory: URL? = nil) throws
    -> [DownloadJob]
  {
    let enclosures = try store.enclosures(among: articles.map(\.id))
    let records = try store.downloads()
    let base = (directory ?? settings.directory).standardizedFileURL.path
    var claimed: Set<String> = []
    var jobs: [DownloadJob] = []
    for article in articles {
      let media = (enclosures[article.id] ?? []).filter(\.isMedia)
      for (index, enclosure) in media.enumerated() {
        let record = records[enclosure.url]
        if let record, record.isFinished {
          if onlyNew { continue }
          if FileManager.default.fileExists(atPath: record.path) {
            claimed.insert(record.path)
            jobs.append(
              DownloadJob(
                article: article, number: index + 1, enclosure: enclosure, path: record.path,
                isDone: true))
            continue
          }
        }
        let path: String
        if let record, !record.isFinished, directory == nil || record.path.hasPrefix(base + "/") {
          path = record.path
        } else {
          path = freePath(
            base + "/" + relativePath(article, enclosure, number: index + 1), claimed: claimed)
        }
        claimed.insert(path)
        jobs.append(
          DownloadJob(
            article: article, number: index + 1, enclosure: enclosure, path: path, isDone: false))
      }
    }
    return jobs
  }

  /// The name the template gives an enclosure.
  func relativePath(_ article: Article, _ enclosure: Enclosure, number: Int) -> String {
    let date = article.publishedAt.map { Self.day.string(from: $0) } ?? "undated"
    return settings.name.path(
      DownloadName.Values(
        source: article.provider, date: date, title: article.title,
        ext: DownloadName.fileExtension(url: enclosure.url, type: enclosure.type),
        id: article.id, n: number))
  }

  /// `path`, or the first of `path (2)`, `path (3)`… that no file, part or other job holds.
  private func freePath(_ path: String, claimed: Set<String>) -> String {
    var candidate = path
    var number = 1
    let files = FileManager.default
    while claimed.contains(candidate) || files.fileExists(atPath: candidate)
      || files.fileExists(atPath: candidate + ".part")
    {
      number += 1
      candidate = DownloadName.numbered(path, number)
    }
    return candidate
  }

  private static let day: DateFormatter = {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(secondsFromGMT: 0)
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter
  }()

  /// Runs `jobs`, `NEWS_DOWNLOAD_CONCURRENCY` at once; `finished` hears of each as it ends.
  ///
  /// - Returns: an outcome a job, in the order given.
  public func run(
    _ jobs: [DownloadJob], progress: DownloadProgress = DownloadProgress(),
    finished: @escaping @Sendable (DownloadOutcome) -> Void = { _ in }
  ) async -> [DownloadOutcome] {
    var outcomes: [Int: DownloadOutcome] = [:]
    await withTaskGroup(of: (Int, DownloadOutcome).self) { group in
      var next = 0
      func addNext() {
        guard next < jobs.count else { return }
        let index = next
        next += 1
        group.addTask {
          let outcome = await download(jobs[index], index: index, progress: progress)
          finished(outcome)
          return (index, outcome)
        }
      }
      for _ in 0..<settings.concurrency { addNext() }
      for await (index, outcome) in group {
        outcomes[index] = outcome
        addNext()
      }
    }
    return jobs.indices.compactMap { outcomes[$0] }
  }

  /// One job, resumed and retried as the type's documentation says.
  func download(_ job: DownloadJob, index: Int, progress: DownloadProgress) async
    -> DownloadOutcome
  {
    var outcome = DownloadOutcome(job: job, bytes: 0, resumedFrom: 0)
    if job.isDone {
      outcome.bytes = Self.size(of: job.path) ?? 0
      return outcome
    }
    let url = job.enclosure.url
    guard let address = URL.web(url) else {
      outcome.error = DownloadError.unsupported(url: url)
      return outcome
    }
    let part = job.path + ".part"
    progress.start(index, name: (job.path as NSString).lastPathComponent, at: timing.now())
    defer { progress.end(index) }
    var record: DownloadRecord
    do {
      record =
        try store.downloads()[url].flatMap { $0.path == job.path ? $0 : nil }
        ?? DownloadRecord(article: job.article.id, path: job.path, bytes: 0)
      record.finishedAt = nil
      try FileManager.default.createDirectory(
        atPath: (job.path as NSString).deletingLastPathComponent,
        withIntermediateDirectories: true)
      // Remembered before the first byte: a run killed half way leaves a part the next finds.
      try store.noteDownload(record, of: url)
    } catch {
      outcome.error = Self.newsError(error, url: url, path: job.path)
      return outcome
    }
    var attempt = 0
    var restarted = false
    while true {
      attempt += 1
      let file: PartFile
      // The validator is remembered as soon as the head came, off the network's thread: a run
      // killed half way resumes with If-Range.
      let (heads, headsIn) = AsyncStream.makeStream(of: String?.self)
      do {
        file = try PartFile(
          path: part, url: url, limit: settings.maximumBytes,
          whenBusy: attempt > 1 ? PartFile.waitingBriefly() : nil,
          progress: { progress.update(index, bytes: $0, total: $1) },
          onHead: { headsIn.yield($0) })
      } catch {
        outcome.error = Self.newsError(error, url: url, path: part)
        return outcome
      }
      // Let go before the next attempt opens the part again, or the run ends.
      defer { file.release() }
      let noting = Task { [store, record] () -> String? in
        var problem: String?
        for await validator in heads where validator != nil && validator != record.validator {
          var noted = record
          noted.validator = validator
          do {
            try store.noteDownload(noted, of: url)
          } catch {
            // Said: without it, a run killed now would resume without If-Range.
            problem = Self.recordWarning(error, url: url)
          }
        }
        return problem
      }
      if attempt == 1 { outcome.resumedFrom = file.offset }
      progress.resume(index, from: file.offset)
      var headers: [String: String] = ["Accept": "*/*"]
      if file.offset > 0 {
        headers["Range"] = "bytes=\(file.offset)-"
        if let validator = record.validator { headers["If-Range"] = validator }
      }
      do {
        let response: HTTPResponse
        do {
          response = try await transport.stream(address, headers: headers, into: file.stream)
          headsIn.finish()
          if let problem = await noting.value { outcome.warning = problem }
        } catch {
          headsIn.finish()
          if let problem = await noting.value { outcome.warning = problem }
          throw error
        }
        // A response without a body never reached the stream.
        try file.begin(status: response.status, headers: response.headers)
        try file.complete()
        guard rename(part, job.path) == 0 else {
          throw DownloadError.write(path: job.path, reason: PartFile.reason(errno))
        }
        record.bytes = file.size
        record.validator = file.validator ?? record.validator
        record.finishedAt = timing.now()
        outcome.bytes = file.size
        if file.endedAtPart {
          outcome.warning =
            "\(url): the server first said the file was longer, then that it ends at "
            + "\(file.size) bytes; kept as whole at what came"
        }
        do {
          try store.noteDownload(record, of: url)
        } catch {
          outcome.error = Self.newsError(error, url: url, path: job.path)
        }
        return outcome
      } catch is PartFile.Restart where !restarted {
        // The server cannot continue the part (it changed, or is shorter): start over once.
        restarted = true
        unlink(part)
        record.validator = nil
        continue
      } catch {
        let failure = Self.newsError(error, url: url, path: part)
        record.bytes = file.size
        record.validator = file.validator ?? record.validator
        // The record follows the part; failing, it is said (the part's size is what the next
        // run resumes from anyway).
        do {
          if case .tooLarge = failure as? DownloadError {
            unlink(part)
            try store.noteDownload(nil, of: url)
          } else if file.size == 0 {
            // Nothing came (an error status, a refused connection): no empty part is left.
            unlink(part)
            try store.noteDownload(nil, of: url)
          } else {
            try store.noteDownload(record, of: url)
          }
        } catch {
          outcome.warning = Self.recordWarning(error, url: url)
        }
        let progressed = file.written > 0 || failure is HTTPError
        if progressed, attempt <= retryPolicy.retries, !(error is CancellationError),
          !Task.isCancelled, failure.isOutage
        {
          do {
            try await timing.pause(retryPolicy.delay)
            continue
          } catch {}
        }
        outcome.bytes = file.size
        outcome.error =
          (failure is HTTPError && file.size > 0)
          ? DownloadError.interrupted(
            url: url, reason: failure.message, kept: file.size, part: part)
          : failure
        return outcome
      }
    }
  }

  /// What a download record that could not be written costs, as a warning.
  private static func recordWarning(_ error: any Error, url: String) -> String {
    "the download record of \(url) not written ("
      + ((error as? any NewsError)?.message ?? "\(error)")
      + "): a run stopped now starts it over, or resumes it without checking it is unchanged"
  }

  /// The error as the user is told it.
  private static func newsError(_ error: any Error, url: String, path: String) -> any NewsError {
    if let error = error as? any NewsError { return error }
    if error is CancellationError || error is PartFile.Restart {
      return DownloadError.interrupted(
        url: url, reason: "stopped", kept: size(of: path) ?? 0, part: path)
    }
    return DownloadError.write(path: path, reason: error.localizedDescription)
  }

  private static func size(of path: String) -> Int64? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return Int64(info.st_size)
  }
}
