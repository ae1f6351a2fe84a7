import FeedParsing
import Foundation

/// `news sources add`, `remove`, `import` and `export`: the user's web feeds, kept in
/// `config.json` (written atomically, under a lock, everything else in it kept as written).
public struct SubscriptionService: Sendable {
  let configuration: Configuration
  /// `config.json` as this run read it.
  public let configFile: FeedConfigFile?
  let sources: [FeedSource]
  let reserved: Set<String>
  private let transport: HTTPTransport
  private let deadline: Deadline
  private let randomBytes: @Sendable (Int) -> [UInt8]
  private let now: @Sendable () -> Date

  /// Creates the service.
  ///
  /// - Parameters:
  ///   - sources: every feed source now (built-in and declared).
  ///   - reserved: names a source may not take (providers' names).
  public init(
    configuration: Configuration, configFile: FeedConfigFile?, sources: [FeedSource],
    reserved: Set<String>,
    transport: HTTPTransport, deadline: Deadline, randomBytes: @escaping @Sendable (Int) -> [UInt8],
    now: @escaping @Sendable () -> Date
  ) {
    self.configuration = configuration
    self.configFile = configFile
    self.sources = sources
    self.reserved = reserved.union(SourceName.builtInFeeds).union(SourceName.reserved)
    self.transport = transport
    self.deadline = deadline
    self.randomBytes = randomBytes
    self.now = now
  }

  /// What `add` did.
  public struct Added: Sendable {
    /// The source's name.
    public var name: String
    /// The feed's URL (the one given, or the feed its page announced).
    public var url: URL
    /// The feed's title, if it has one.
    public var title: String?
    /// How many items it holds now.
    public var itemCount: Int
    /// Whether it was subscribed already (nothing was written).
    public var existed: Bool
    /// The feed's answer, to be kept as a refresh keeps it (``FeedService/keep(_:for:)``);
    /// `nil` when it existed.
    public var response: HTTPResponse? = nil
    /// Its time to live, as written (`nil`: the default).
    public var ttl: Int? = nil
    /// How its answer is read (`nil`: as a web feed).
    public var adapter: (any FeedAdapter)? = nil
    /// The other feeds the page given announced (a blog's comments feed), in its order: not
    /// subscribed to, said so that one can be.
    public var alsoAnnounced: [AnnouncedFeed] = []
    /// The most items it keeps, as written (`nil`: no limit).
    public var maxItems: Int? = nil
    /// The feed's URL as asked, when it was moved for good (301, 308) and `url` is where it went.
    public var movedFrom: URL? = nil
  }

  /// Subscribes to the feed at `url`, or to the feed the page at `url` announces.
  ///
  /// - Parameters:
  ///   - name: the source's name; derived from the feed's title when `nil`.
  ///   - ttl: its time to live in seconds; the default (15 min) when `nil`.
  ///   - settings: what its entry holds besides (`sources add --tags …`), as `set` writes it.
  public func add(
    _ url: URL, name: String?, ttl: Int?, settings: SourceSettings = SourceSettings()
  ) async throws -> Added {
    // A URL subscribed already is said so first, whatever the name given: running the same
    // `sources add … --name blog` twice succeeds both times.
    if let existing = source(at: url) {
      return Added(name: existing.name, url: url, title: nil, itemCount: 0, existed: true)
    }
    // A name taken may be this very feed's, under the URL it moved to: known once asked.
    var taken: SubscriptionError?
    if let name {
      do { try check(name) } catch SubscriptionError.nameTaken(let name) {
        taken = .nameTaken(name)
      }
    }
    let page: HTTPResponse
    do {
      page = try await get(url)
    } catch {
      // Unreachable, the name taken is what there is to say.
      if let taken { throw taken }
      throw error
    }
    // Moved: subscribed to where it went when that was for good, and not twice either way.
    if let existing = subscribed(answering: page, asked: url) { return existing }
    if let taken { throw taken }
    var answer = page
    var feedURL = page.permanentURL ?? url
    var movedFrom = page.permanentURL == nil ? nil : url
    var document: DecodedFeed
    var others: [AnnouncedFeed] = []
    do {
      document = try SyndicationAdapter().read(page.body, source: "new", origin: page.origin)
    } catch {
      let announced = FeedDiscovery.announced(in: page.body, url: page.url ?? url)
      guard let first = announced.first?.url else {
        // A web page (served as HTML): what can be done with it is said.
        if (page.headers["content-type"] ?? "").lowercased().contains("html") {
          throw SubscriptionError.pageWithoutFeed(url: url.withoutPassword.absoluteString)
        }
        // A list of feeds (OPML) is imported, not subscribed to: said, with how.
        if String(decoding: page.body.prefix(1_024), as: UTF8.self).lowercased().contains("<opml"),
          case .success(let list) = Result(catching: { try SubscriptionFile.parse(page.body) }),
          !list.subscriptions.isEmpty
        {
          throw SubscriptionError.listToAdd(
            url: url.withoutPassword.absoluteString, feeds: list.subscriptions.count)
        }
        let detail = (error as? any NewsError)?.message ?? String(describing: error)
        throw SubscriptionError.notAFeed(
          url: url.withoutPassword.absoluteString,
          detail: detail.replacingOccurrences(
            of: "source new sent something unexpected: ", with: ""))
      }
      (feedURL, movedFrom) = (first, nil)
      others = Array(announced.dropFirst())
      if let existing = source(at: feedURL) {
        return Added(name: existing.name, url: feedURL, title: nil, itemCount: 0, existed: true)
      }
      let feed = try await get(feedURL)
      if let existing = subscribed(answering: feed, asked: feedURL) { return existing }
      if let moved = feed.permanentURL { (feedURL, movedFrom) = (moved, feedURL) }
      document = try SyndicationAdapter().read(feed.body, source: "new", origin: feed.origin)
      answer = feed
    }
    let chosen = name ?? uniqueName(from: document.title, url: feedURL)
    let entry = Entry(
      name: chosen, url: feedURL, ttl: ttl, tags: [], title: document.title,
      site: document.site.flatMap { URL.web($0) })
    try append(entry.json, named: chosen, settings)
    let maxItems = settings.maxItems.flatMap { $0 == 0 ? nil : $0 }
    return Added(
      name: chosen, url: feedURL,
      title: settings.title.map { $0.isEmpty ? nil : $0 } ?? document.title,
      itemCount: min(document.items.count, maxItems ?? .max), existed: false, response: answer,
      ttl: ttl, alsoAnnounced: others, maxItems: maxItems, movedFrom: movedFrom)
  }

  /// The source subscribed already at the URL that answered `asked` after its redirects, if any.
  private func subscribed(answering response: HTTPResponse, asked: URL) -> Added? {
    guard let answered = response.url, answered != asked, let existing = source(at: answered)
    else { return nil }
    return Added(name: existing.name, url: answered, title: nil, itemCount: 0, existed: true)
  }

  /// A page read by selectors (`sources add URL --items …`): what it gives now, and what was
  /// added (nothing when `dryRun`).
  package struct AddedPage: Sendable {
    public var added: Added
    public var items: [FeedItem]
    /// What was not read (dates in another form).
    public var notes: [String]
  }

  /// Subscribes to the page at `url` read by `selectors` (`"html"` in `config.json`), after
  /// reading it once: a page where they find no item is refused, saying which selector matched
  /// nothing. With `dryRun`, nothing is written.
  package func addPage(
    _ url: URL, selectors: PageSelectors, name: String?, ttl: Int?,
    settings: SourceSettings = SourceSettings(), dryRun: Bool
  ) async throws -> AddedPage {
    if let name { try check(name) }
    let page = try await get(url)
    let adapter = PageAdapter(selectors: selectors)
    let title: String?
    let read: DecodedFeed
    do throws(PageSelectors.Failure) {
      let found = try selectors.read(page.body, origin: page.origin)
      title = found.title
      read = PageAdapter.items(found.entries, source: "new")
    } catch {
      throw SubscriptionError.noItems(url: url.withoutPassword.absoluteString, detail: error.detail)
    }
    if let existing = source(at: url), !dryRun {
      return AddedPage(
        added: Added(name: existing.name, url: url, title: nil, itemCount: 0, existed: true),
        items: read.items, notes: read.notes)
    }
    let chosen = name ?? uniqueName(from: title, url: url)
    let maxItems = settings.maxItems.flatMap { $0 == 0 ? nil : $0 }
    var added = Added(
      name: chosen, url: url, title: title, itemCount: min(read.items.count, maxItems ?? .max),
      existed: false, response: page, ttl: ttl, adapter: adapter, maxItems: maxItems)
    if dryRun {
      added.response = nil
      return AddedPage(added: added, items: read.items, notes: read.notes)
    }
    var html: [(String, JSONValue)] = [("items", .string(selectors.items.text))]
    for (key, field) in [
      ("title", selectors.title), ("link", selectors.link), ("date", selectors.date),
      ("content", selectors.content),
    ] {
      if let field { html.append((key, .string(field.text))) }
    }
    if let format = selectors.dateFormat { html.append(("dateFormat", .string(format))) }
    var members: [(String, JSONValue)] = [
      ("name", .string(chosen)), ("url", .string(url.absoluteString)),
    ]
    if let title = Optional(TerminalSanitizer.clean(title ?? "")).nonEmpty, title != chosen {
      members.append(("title", .string(title)))
    }
    if let ttl { members.append(("ttl", .int(ttl))) }
    members.append(("html", .object(html)))
    try append(JSONValue.object(members).serialized(), named: chosen, settings)
    return AddedPage(added: added, items: read.items, notes: read.notes)
  }

  /// Saves a search as a source (`{"name": …, "search": …}`): its items are the newest stored
  /// articles matching `words`, as `news search` finds them. Named from the words unless `name`
  /// is given; returns the name.
  public func addSearch(
    _ words: String, name: String?, settings: SourceSettings = SourceSettings()
  ) throws -> String {
    if let name { try check(name) }
    let chosen = name ?? uniqueName(from: words, url: SavedSearchAdapter.url(words))
    try append(
      JSONValue.object([("name", .string(chosen)), ("search", .string(words))]).serialized(),
      named: chosen, settings)
    return chosen
  }

  /// Adds a source made by a command (`command.kind` `exec`: its output is the document;
  /// `filter`: the document at `url` goes through it) to `config.json`, named `name` or after
  /// the command's first word; returns the name. Nothing is run now: the next `feed` does.
  public func addCommand(
    _ command: SourceCommand, url: URL?, name: String?, settings: SourceSettings = SourceSettings()
  ) throws -> String {
    if let name { try check(name) }
    let program = command.command.split(separator: " ").first.map {
      String($0.split(separator: "/").last ?? $0)
    }
    let chosen = name ?? uniqueName(from: program, url: url ?? SourceCommand.url(command.command))
    var members: [(String, JSONValue)] = [("name", .string(chosen))]
    if let url { members.append(("url", .string(url.absoluteString))) }
    members.append((command.kind.rawValue, .string(command.command)))
    try append(JSONValue.object(members).serialized(), named: chosen, settings)
    return chosen
  }

  /// Changes the settings of the source `name` in `config.json` (a built-in source gets an entry
  /// of its own holding them); what `settings` leaves `nil` stays as it is.
  ///
  /// A provider (`newsapi`, `articles`, `bbc`) takes `--enable` and `--disable` only: its entry
  /// holds `"enabled": false` while it is off.
  public func set(_ name: String, _ settings: SourceSettings) throws {
    if SourceName.providers.contains(name) {
      guard settings.ttl == nil, settings.maxItems == nil, settings.tags == nil,
        settings.fullText == nil, settings.hidden == nil, settings.title == nil,
        settings.url == nil
      else {
        throw SubscriptionError.providerSetting(name)
      }
    } else {
      guard let source = sources.first(where: { $0.name == name }) else {
        throw SubscriptionError.unknownSource(
          name: name, known: SourceName.providers + sources.map(\.name))
      }
      if let account = source.account {
        throw SubscriptionError.accountFeed(name: name, account: account)
      }
      if let url = settings.url {
        // A saved search and a command's feed have no address; an address is one source's.
        guard source.search == nil, source.command?.kind != .exec else {
          throw SubscriptionError.noAddress(name)
        }
        if let other = self.source(at: url), other.name != name {
          throw SubscriptionError.subscribedAs(
            url: url.withoutPassword.absoluteString, name: other.name)
        }
      }
    }
    let members = settings.members
    guard !members.isEmpty else { return }
    try edit { editor throws(ConfigFileEditor.Failure) in
      if try !editor.set(members, inEntryNamed: name) {
        try editor.append(JSONValue.object([("name", .string(name))]).serialized())
        _ = try editor.set(members, inEntryNamed: name)
      }
    }
  }

  /// Unsubscribes from the source `name` (its stored articles stay until retention drops them).
  public func remove(_ name: String) throws {
    guard sources.contains(where: { $0.name == name }) else {
      throw SubscriptionError.unknownSource(name: name, known: sources.map(\.name))
    }
    let declared = configFile?.sources.contains { $0.name == name } ?? false
    if SourceName.builtInFeeds.contains(name) || !declared {
      throw SubscriptionError.builtIn(name)
    }
    try write([], removing: name)
  }

  /// What `import` did.
  public struct Imported: Sendable, Equatable {
    /// The new sources: name and URL.
    public var added: [(name: String, url: URL)]
    /// How many were subscribed already.
    public var existing: Int
    /// What the file had that cannot be imported (newsboat's query feeds…).
    public var skipped: [String]

    public static func == (lhs: Imported, rhs: Imported) -> Bool {
      lhs.added.map(\.name) == rhs.added.map(\.name) && lhs.added.map(\.url) == rhs.added.map(\.url)
        && lhs.existing == rhs.existing && lhs.skipped == rhs.skipped
    }
  }

  /// Subscribes to every feed of an OPML or newsboat `urls` file; feeds subscribed already (by
  /// URL) are left as they are, so importing twice adds nothing twice. Nothing is fetched.
  public func importFile(_ data: Data, path: String) throws -> Imported {
    let parsed: (subscriptions: [Subscription], skipped: [String])
    do {
      parsed = try SubscriptionFile.parse(data)
    } catch {
      throw SubscriptionError.importing(path, error)
    }
    var entries: [Entry] = []
    // Linear in the file: one set of names taken, and for each name the next number to try.
    var names = NameAllocator(taken: Set(sources.map(\.name)).union(reserved))
    names.count(sources.map(\.url) + parsed.subscriptions.map(\.url))
    var seen = Set(sources.map { Self.normalized($0.url) })
    // The file's own feeds by address: one listed in two folders is one source with both tags.
    var added: [String: Int] = [:]
    var existing = 0
    for subscription in parsed.subscriptions {
      let address = Self.normalized(subscription.url)
      if let index = added[address] {
        for tag in subscription.tags where !entries[index].tags.contains(tag) {
          entries[index].tags.append(tag)
        }
        continue
      }
      guard seen.insert(address).inserted else {
        existing += 1
        continue
      }
      added[address] = entries.count
      let name = names.take(title: subscription.title, url: subscription.url)
      entries.append(
        Entry(
          name: name, url: subscription.url, ttl: nil, tags: subscription.tags,
          title: subscription.title, site: subscription.site))
    }
    if !entries.isEmpty { try write(entries, removing: nil) }
    return Imported(
      added: entries.map { ($0.name, $0.url) }, existing: existing, skipped: parsed.skipped)
  }

  /// The web feeds among `sources` (RSS, Atom, JSON Feed sources, and the feeds of accounts
  /// whose servers give their addresses) as OPML 2.0; not an `exec` source, whose feed is a
  /// command's output and whose `exec:` address no reader could ask. By default, the sources
  /// this service was made with.
  public func export(_ sources: [FeedSource]? = nil) -> String {
    OPMLExport.document((sources ?? self.sources).filter(Self.exportable), now: now())
  }

  /// Whether ``export(_:)`` writes `source`: a web feed read from its address (a `filter`
  /// source's unfiltered), or an account's feed whose server gives its address.
  public static func exportable(_ source: FeedSource) -> Bool {
    guard source.search == nil else { return false }
    return (source.adapter is SyndicationAdapter && source.command?.kind != .exec)
      || (source.adapter as? AccountFeedAdapter)?.isFeedAddress == true
  }

  // MARK: Names

  private func check(_ name: String) throws {
    guard SourceName.isValid(name) else { throw SubscriptionError.invalidName(name) }
    if sources.contains(where: { $0.name == name }) || !SourceName.reserved.contains(name),
      reserved.contains(name) || sources.contains(where: { $0.name == name })
    {
      throw SubscriptionError.nameTaken(name)
    }
    if reserved.contains(name) { throw SubscriptionError.reservedName(name) }
  }

  /// A free name from the feed's title (`Hacker News` → `hacker-news`), else from its address.
  private func uniqueName(from title: String?, url: URL) -> String {
    var names = NameAllocator(taken: Set(sources.map(\.name)).union(reserved))
    names.count(sources.map(\.url) + [url])
    return names.take(title: title, url: url)
  }

  /// The name a feed would like: its title's slug; else its host's (`www.`, `feeds.`, `feed.`,
  /// `rss.` left out), and when another feed of that host is subscribed (`hostShared`), the
  /// words of its address that tell the two apart (`reddit-com-r-swift`,
  /// `feedburner-com-oreilly-radar`: not a feed's usual `feed`, `rss`, `index.xml`); else
  /// `feed` (taken: `feed-2`).
  static func baseName(from title: String?, url: URL, hostShared: Bool = false) -> String {
    var base = slug(title ?? "")
    if base.isEmpty {
      base = slug(hostName(url))
      let words =
        hostShared ? SourceName.slug(addressWords(url).joined(separator: " "), maxLength: 64) : ""
      if !base.isEmpty, !words.isEmpty {
        // Cut at a word within the length a name has.
        var whole = base + "-" + words
        while whole.count > 32, let cut = whole.lastIndex(of: "-") { whole = String(whole[..<cut]) }
        if whole.count <= 32, whole.count > base.count { base = whole }
      }
    }
    return base.isEmpty ? SourceName.untitled : base
  }

  /// The host a name is made of: lower-case, without a leading `www.`, `feeds.`, `feed.` or
  /// `rss.`.
  static func hostName(_ url: URL) -> String {
    var host = (url.host ?? "").lowercased()
    for prefix in ["www.", "feeds.", "feed.", "rss."] where host.hasPrefix(prefix) {
      host.removeFirst(prefix.count)
      break
    }
    return host
  }

  /// The words of `url`'s path and query values that name the feed among its host's: each
  /// path segment (the last without its `.xml`, `.rss`…), then each query value, leaving out the
  /// words every feed address has (`feed`, `rss`, `atom`, `index`…).
  static func addressWords(_ url: URL) -> [String] {
    let (generic, extensions) = (genericAddressWords, feedExtensions)
    var words: [String] = []
    for segment in url.path.split(separator: "/") {
      var word = segment.lowercased()
      if let dot = word.lastIndex(of: "."),
        extensions.contains(String(word[word.index(after: dot)...]))
      {
        word = String(word[..<dot])
      }
      if !generic.contains(word) { words.append(word) }
    }
    // Most feed addresses have no query: none is parsed for them.
    let query =
      url.query == nil ? [] : URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems
    for item in query ?? [] {
      if let value = item.value?.lowercased(), !generic.contains(value) { words.append(value) }
    }
    return words
  }

  /// The words every feed address has, written as one text (they are no source's name).
  private static let genericAddressWords = Set(
    "feed feeds rss rss2 atom xml rdf index default json syndication".split(separator: " ")
      .map(String.init) + [""])

  /// The endings of a feed's file, left out of its last word.
  private static let feedExtensions: Set<String> = [
    "xml", "rss", "atom", "rdf", "json", "php", "cgi", "html", "htm",
  ]

  /// Hands out free names: `base`, else `base-2`, `base-3`…, remembering where each base got to.
  struct NameAllocator {
    var taken: Set<String>
    var next: [String: Int] = [:]
    /// How many feeds of each host (``hostName(_:)``) are subscribed or being subscribed: a
    /// feed of a host with several is named by its address's words too.
    var feedsByHost: [String: Int] = [:]

    /// Counts `urls` (each address once) among the feeds of their hosts.
    mutating func count(_ urls: some Sequence<URL>) {
      var seen = Set<String>()
      for url in urls where seen.insert(SubscriptionService.normalized(url)).inserted {
        feedsByHost[SubscriptionService.hostName(url), default: 0] += 1
      }
    }

    /// A free name for the feed at `url` titled `title` (``baseName(from:url:hostShared:)``).
    mutating func take(title: String?, url: URL) -> String {
      let shared = (feedsByHost[SubscriptionService.hostName(url)] ?? 0) > 1
      return take(SubscriptionService.baseName(from: title, url: url, hostShared: shared))
    }

    mutating func take(_ base: String) -> String {
      var name = base
      var counter = next[base] ?? 2
      while taken.contains(name) {
        name = "\(base)-\(counter)"
        counter += 1
      }
      next[base] = counter
      taken.insert(name)
      return name
    }
  }

  /// Lower-case ASCII letters and digits, `-` between words, at most 32 characters.
  static func slug(_ text: String) -> String { SourceName.slug(text, maxLength: 32) }

  // MARK: Network

  private func source(at url: URL) -> FeedSource? {
    let wanted = Self.normalized(url)
    return sources.first { Self.normalized($0.url) == wanted }
  }

  /// Scheme and host in lower case, no trailing `/`: how two spellings of a URL compare.
  static func normalized(_ url: URL) -> String { url.comparableAddress }

  /// A list of subscriptions published on the web (`sources import https://…/feeds.opml`): its
  /// body, as a file of ``SubscriptionFile/read(_:relativeTo:)`` is read.
  ///
  /// - Throws: ``FeedError`` (unreachable, an error status), ``SubscriptionError/badImport(path:detail:)``
  ///   for a body past ``SubscriptionFile/maximumSize``.
  public func download(_ url: URL) async throws -> Data {
    let body = try await get(url, accept: Self.listTypes).body
    guard body.count <= SubscriptionFile.maximumSize else {
      throw SubscriptionError.badImport(
        path: url.withoutPassword.absoluteString,
        detail:
          "it is larger than \(SubscriptionFile.maximumSize >> 20) MiB: not a list of subscriptions"
      )
    }
    return body
  }

  /// What a list of subscriptions is served as: OPML, or a newsboat `urls` file as text.
  static let listTypes =
    "text/x-opml, application/xml;q=0.9, text/xml;q=0.9, text/plain;q=0.8, */*;q=0.5"

  private func get(_ url: URL, accept: String = SyndicationAdapter.accept) async throws
    -> HTTPResponse
  {
    let transport = self.transport
    var response = try await deadline.run {
      try await transport.get(url, headers: ["Accept": accept])
    }
    guard response.succeeded else {
      throw FeedError.status(
        source: url.withoutPassword.absoluteString, code: response.status,
        attempts: response.attempts)
    }
    response.url = response.url ?? url
    return response
  }

  // MARK: config.json

  private struct Entry {
    var name: String
    var url: URL
    var ttl: Int?
    var tags: [String]
    /// The feed's own title, kept when it says more than the name.
    var title: String?
    /// The site the feed is of.
    var site: URL?

    var json: String {
      var members: [(String, JSONValue)] = [
        ("name", .string(name)), ("url", .string(url.absoluteString)),
      ]
      if let title = Optional(TerminalSanitizer.clean(title ?? "")).nonEmpty, title != name {
        members.append(("title", .string(title)))
      }
      if let ttl { members.append(("ttl", .int(ttl))) }
      if !tags.isEmpty { members.append(("tags", .array(tags.map { .string($0) }))) }
      if let site { members.append(("site", .string(site.absoluteString))) }
      return JSONValue.object(members).serialized()
    }
  }

  /// Adds the entry `json` of the new source `name` to `config.json`, with `settings` written
  /// into it as `set` writes them, in one edit.
  private func append(_ json: String, named name: String, _ settings: SourceSettings) throws {
    let members = settings.members
    try edit { editor throws(ConfigFileEditor.Failure) in
      try editor.append(json)
      if !members.isEmpty { _ = try editor.set(members, inEntryNamed: name) }
    }
  }

  /// Adds `entries` to (or removes the source `removing` from) `config.json`.
  private func write(_ entries: [Entry], removing: String?) throws {
    try edit { editor throws(ConfigFileEditor.Failure) in
      try editor.append(contentsOf: entries.map(\.json))
      if let removing { _ = try editor.remove(named: removing) }
    }
  }

  /// Changes `config.json` with `change`, under its lock, then checks the result decodes before
  /// it replaces the file (everything it does not change stays as written). `sections` are
  /// those the file may hold (by default, those it was read with).
  func edit(
    sections: ConfigSections? = nil,
    _ change: (inout ConfigFileEditor) throws(ConfigFileEditor.Failure) -> Void
  ) throws {
    // A symbolic link (dotfiles) stays one: its target is what is replaced.
    let path = URL(fileURLWithPath: configuration.configFilePath).resolvingSymlinksInPath()
    try AtomicFile.createDirectory(path.deletingLastPathComponent())
    let lock = path.deletingLastPathComponent().appendingPathComponent(
      "." + path.lastPathComponent + ".lock")
    try FileLock.withLock(lock) {
      var data: Data?
      if FileManager.default.fileExists(atPath: path.path) {
        guard let read = FileManager.default.contents(atPath: path.path) else {
          throw SubscriptionError.unreadableFile(path: path.path, reason: "not readable")
        }
        data = read
      }
      var editor = ConfigFileEditor(data)
      do throws(ConfigFileEditor.Failure) {
        try change(&editor)
      } catch {
        throw SubscriptionError.uneditable(path: path.path, detail: error.detail)
      }
      do throws(ConfigurationError) {
        _ = try FeedConfigFile.parse(
          Data(editor.bytes), path: path.path, sections: sections ?? configFile?.sections ?? .core)
      } catch {
        throw SubscriptionError.uneditable(path: path.path, detail: error.message)
      }
      try AtomicFile.write(editor.bytes, to: path, randomBytes: randomBytes)
    }
  }
}
