import Foundation

/// An HTML form's fields as a request body (`a=1&b=two%20words`), in order; a name may repeat
/// (`i=1&i=2`, as the Google Reader API takes several items).
public struct FormBody: Sendable, Equatable {
  /// The media type of the body.
  public static let contentType = "application/x-www-form-urlencoded"
  /// The fields, in order.
  public var fields: [(name: String, value: String)]

  /// Creates a body of `fields`.
  public init(_ fields: [(name: String, value: String)] = []) { self.fields = fields }

  /// The body's bytes: each name and value percent-encoded (only unreserved characters kept).
  public var encoded: Data {
    Data(
      fields.map { Self.escape($0.name) + "=" + Self.escape($0.value) }.joined(separator: "&").utf8)
  }

  /// `text` with every byte but letters, digits and `-._~` percent-encoded.
  static func escape(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
  }

  private static let unreserved = CharacterSet(
    charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

  public static func == (lhs: FormBody, rhs: FormBody) -> Bool {
    lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
  }
}
