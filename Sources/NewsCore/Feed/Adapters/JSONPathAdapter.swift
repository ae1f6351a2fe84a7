import FeedParsing
import Foundation

/// A source declared in `config.json`: where the items are and where each field is, as dotted
/// paths (`"items": "metadata.innerdata"`, `"title": "articlewrapper.header"`). A field given as a
/// list of paths is the concatenation of their values (`"subtitle": ["subLine1", "subline2"]`).
struct JSONPathAdapter: FeedAdapter, Equatable {
  /// Path to the array of items; empty when the body itself is the array.
  var items: String
  /// Paths of the title's parts, inside an item.
  var title: [String]
  /// Paths of the subtitle's parts.
  var subtitle: [String]
  /// Paths of the image URL's parts.
  var imageURL: [String]

  /// Creates an adapter from its paths.
  init(items: String, title: [String], subtitle: [String] = [], imageURL: [String] = []) {
    self.items = items
    self.title = title
    self.subtitle = subtitle
    self.imageURL = imageURL
  }

  func items(from data: Data, source: String) throws -> [FeedItem] {
    let root: Any
    do {
      root = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    } catch {
      throw FeedError.undecodable(source: source, detail: "not valid JSON")
    }
    guard let list = Self.value(at: items, in: root) as? [Any] else {
      throw FeedError.undecodable(
        source: source, detail: "'\(items.isEmpty ? "(top level)" : items)' is not a list")
    }
    return try list.enumerated().compactMap { index, element in
      guard let title = try text(title, in: element, source: source, index: index) else {
        return nil
      }
      return FeedItem(
        feed: source, title: title,
        description: try text(subtitle, in: element, source: source, index: index),
        imageURL: try text(imageURL, in: element, source: source, index: index))
    }
  }

  private func text(_ paths: [String], in element: Any, source: String, index: Int) throws
    -> String?
  {
    var parts: [String] = []
    for path in paths {
      switch Self.value(at: path, in: element) {
      case nil, is NSNull: continue
      case let string as String: parts.append(string)
      case let number as NSNumber: parts.append(number.stringValue)
      default:
        throw FeedError.undecodable(
          source: source, detail: "field '\(items)[\(index)].\(path)' is not a string")
      }
    }
    // Blank counts as absent, as in the typed adapters: an item with a blank title is skipped
    // (found by fuzzing; a title blank only once cleaned of HTML is skipped by FeedItem).
    let joined = parts.joined()
    return joined.trimmingWhitespace().isEmpty ? nil : joined
  }

  static func value(at path: String, in root: Any) -> Any? {
    var current: Any? = root
    for key in path.split(separator: ".") where !key.isEmpty {
      if let dictionary = current as? [String: Any] {
        current = dictionary[String(key)]
      } else if let array = current as? [Any], let index = Int(key), array.indices.contains(index) {
        current = array[index]
      } else {
        return nil
      }
    }
    return current
  }
}
