import FeedParsing

/// Persistent defaults for newsapi.org queries: `NEWS_COUNTRY` (default `us`), `NEWS_CATEGORY`
/// and, for `news search --online`, `NEWS_LANGUAGE`. Options on the command line win; `--sources`
/// drops the country and category defaults (newsapi.org refuses them together).
public struct QueryDefaults: Sendable, Equatable {
  /// newsapi.org's categories (`NEWS_CATEGORY`, `--category`).
  public static let categories = [
    "business", "entertainment", "general", "health", "science", "sports", "technology",
  ]

  /// Two-letter country code.
  public var country: String
  /// One of ``categories``.
  public var category: String?
  /// Two-letter language code.
  public var language: String?

  /// The built-in defaults: US top headlines, any category, any language.
  public init(country: String = "us", category: String? = nil, language: String? = nil) {
    self.country = country
    self.category = category
    self.language = language
  }

  init(_ values: [String: String]) throws(ConfigurationError) {
    self.init()
    if let country = values["NEWS_COUNTRY"] {
      guard Self.isTwoLetters(country) else {
        throw .invalidValue(
          variable: "NEWS_COUNTRY", value: country, expected: "a two-letter country code such as us"
        )
      }
      self.country = country.lowercased()
    }
    if let category = values["NEWS_CATEGORY"] {
      guard Self.categories.contains(category) else {
        throw .invalidValue(
          variable: "NEWS_CATEGORY", value: category,
          expected: "one of \(Self.categories.joined(separator: ", "))")
      }
      self.category = category
    }
    if let language = values["NEWS_LANGUAGE"] {
      guard Self.isTwoLetters(language) else {
        throw .invalidValue(
          variable: "NEWS_LANGUAGE", value: language,
          expected: "a two-letter language code such as fr")
      }
      self.language = language.lowercased()
    }
  }

  private static func isTwoLetters(_ text: String) -> Bool {
    text.count == 2 && text.unicodeScalars.allSatisfy(\.isASCIILetter)
  }
}
