import FeedParsing
import NewsCore
import Serving

// NewsCore has a client's HTTPResponse and HTTPError: here, the server's are meant.
typealias HTTPResponse = Serving.HTTPResponse
typealias HTTPError = Serving.HTTPError

/// One request with what answering it needs: the services, the library and marks as of now.
struct ServedRequest {
  let request: HTTPRequest
  let services: NewsServices
  let library: ServedLibrary
  let marks: ServedMarks
  /// The generation of the library and marks (``LibraryCache/memo(_:for:_:)``).
  let generation: Int
  let cache: LibraryCache
  /// The services as of now (after a change of `config.json` this request made).
  let fresh: @Sendable () throws -> NewsServices

  /// Now, in whole seconds since 1970.
  var now: Int { Int(services.dependencies.timing.now().timeIntervalSince1970) }

  /// The first value of parameter `name`, `nil` when absent or empty.
  func parameter(_ name: String) -> String? {
    request.parameter(name).flatMap { $0.isEmpty ? nil : $0 }
  }

  /// Parameter `name` as a whole number, `nil` when absent.
  ///
  /// - Throws: ``HTTPError/badRequest(_:)`` when it is not one.
  func integer(_ name: String) throws(HTTPError) -> Int64? {
    guard let text = parameter(name) else { return nil }
    guard let value = Int64(text) else { throw .badRequest("'\(name)' is not a number") }
    return value
  }

  /// The items numbered `ids` (either of the Google Reader API's forms), in the order given, and
  /// how many named no stored article.
  ///
  /// - Throws: ``HTTPError/badRequest(_:)`` for an id that is not a number.
  func items(_ ids: [String]) throws(HTTPError) -> (items: [ServedItem], missing: Int) {
    var found: [ServedItem] = []
    var missing = 0
    for id in ids {
      guard let number = ServedItem.number(id) else {
        throw .badRequest("an item id is not a number")
      }
      if let item = library.item(number) { found.append(item) } else { missing += 1 }
    }
    return (found, missing)
  }
}

extension ServedRequest {
  /// Each of `items` with its article, in the order given; one whose article was removed since
  /// the library was read is left out.
  func articles(of items: [ServedItem]) throws -> [(item: ServedItem, article: Article)] {
    let found = try services.articleStore().articles(of: items.map(\.head), files: cache.files)
    return items.compactMap { item in found[item.id].map { (item, $0) } }
  }

  /// The files of those of `items` that carry some (a podcast's episodes), by article id; none
  /// when they cannot be read (the items are served without them, as the store's other
  /// failures to read something beside an article are).
  func enclosures(of items: [ServedItem]) -> [String: [Enclosure]] {
    guard !items.isEmpty else { return [:] }
    do {
      return try services.articleStore().enclosures(among: items.map(\.id))
    } catch {
      return [:]
    }
  }
}

extension HTTPResponse {
  /// `response` with a note for the log saying how many ids named nothing (none: no note).
  func noting(missing: Int) -> HTTPResponse {
    var response = self
    if missing > 0 { response.note = "\(missing) id\(missing == 1 ? "" : "s") not found" }
    return response
  }

  /// A JSON answer of `value`.
  static func json(_ value: JSONValue) -> HTTPResponse {
    .json(value.serialized())
  }
}
