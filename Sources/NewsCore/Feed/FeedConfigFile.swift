import Foundation

/// `config.json` (in the config directory, or the file `NEWS_CONFIG` names): feed sources declared
/// without code.
///
///     {"sources": [{"name": "d", "url": "https://example.com/d.json", "ttl": 600,
///       "mapping": {"items": "data.list", "title": "headline",
///                   "subtitle": ["kicker", "summary"], "imageUrl": "image.src"}}]}
///
/// A built-in source (`a`, `b`, `c`) may be listed with only `url` and/or `ttl` to change those.
struct FeedConfigFile {
  struct DeclaredSource {
    var name: String
    var url: URL?
    var ttl: Duration?
    var adapter: JSONPathAdapter?

    func applied(to source: FeedSource) -> FeedSource {
      var source = source
      if let url { source.url = url }
      if let ttl { source.ttl = ttl }
      if let adapter { source.adapter = adapter }
      return source
    }

    func source(file: String) throws -> FeedSource {
      guard let url else {
        throw FeedError.invalidConfig(file: file, source: name, field: "url", problem: "is missing")
      }
      guard let adapter else {
        throw FeedError.invalidConfig(
          file: file, source: name, field: "mapping", problem: "is missing")
      }
      return FeedSource(name: name, url: url, ttl: ttl ?? .seconds(15 * 60), adapter: adapter)
    }
  }

  var path: String
  var sources: [DeclaredSource]

  /// Reads the file, if there is one. `NEWS_CONFIG` naming a missing file is an error.
  static func load(_ configuration: Configuration) throws -> FeedConfigFile? {
    let explicit = configuration.values["NEWS_CONFIG"]
    let path =
      explicit ?? configuration.paths.configDirectory.appendingPathComponent("config.json").path
    guard let data = FileManager.default.contents(atPath: path) else {
      if explicit != nil {
        throw ConfigurationError.unreadableFile(
          variable: "NEWS_CONFIG", path: path, reason: "no such file")
      }
      return nil
    }
    return try parse(data, path: path)
  }

  static func parse(_ data: Data, path: String) throws -> FeedConfigFile {
    func fail(_ source: String?, _ field: String, _ problem: String) -> FeedError {
      .invalidConfig(file: path, source: source, field: field, problem: problem)
    }
    guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
      throw fail(nil, "(top level)", "is not a JSON object")
    }
    guard let list = root["sources"] as? [Any] else {
      throw fail(nil, "sources", "must be a list of sources")
    }
    var seen = Set<String>()
    let sources = try list.enumerated().map { index, element -> DeclaredSource in
      guard let object = element as? [String: Any] else {
        throw fail(nil, "sources[\(index)]", "must be an object")
      }
      guard let name = object["name"] as? String, !name.isEmpty,
        name.unicodeScalars.allSatisfy({
          ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
        })
      else {
        throw fail(nil, "sources[\(index)].name", "must be lower-case letters, digits or '-'")
      }
      guard seen.insert(name).inserted else { throw fail(name, "name", "is declared twice") }
      var declared = DeclaredSource(name: name)
      if let url = object["url"] {
        guard let text = url as? String, let parsed = URL(string: text),
          ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host != nil
        else { throw fail(name, "url", "must be an http:// or https:// URL") }
        declared.url = parsed
      }
      if let ttl = object["ttl"] {
        // Bounded, so that a huge number cannot overflow the conversion (found by fuzzing).
        guard let seconds = ttl as? NSNumber, (0...31_536_000).contains(seconds.doubleValue) else {
          throw fail(name, "ttl", "must be a number of seconds from 0 to 31536000 (a year)")
        }
        declared.ttl = .milliseconds(Int(seconds.doubleValue * 1000))
      }
      if let mapping = object["mapping"] {
        guard let mapping = mapping as? [String: Any] else {
          throw fail(name, "mapping", "must be an object")
        }
        func paths(_ field: String, required: Bool) throws -> [String] {
          switch mapping[field] {
          case nil where !required: return []
          case let path as String: return [path]
          case let paths as [Any] where !paths.isEmpty && paths.allSatisfy({ $0 is String }):
            return paths.compactMap { $0 as? String }
          default:
            throw fail(name, "mapping.\(field)", "must be a JSON path or a list of them")
          }
        }
        guard let items = mapping["items"] as? String else {
          throw fail(name, "mapping.items", "must be the JSON path of the list of items")
        }
        declared.adapter = JSONPathAdapter(
          items: items, title: try paths("title", required: true),
          subtitle: try paths("subtitle", required: false),
          imageURL: try paths("imageUrl", required: false))
      }
      return declared
    }
    return FeedConfigFile(path: path, sources: sources)
  }
}
