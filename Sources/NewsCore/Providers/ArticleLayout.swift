import Foundation

/// How a provider's articles are laid out: what their fields mean on screen.
public enum ArticleLayout: Sendable, Equatable {
  /// Title; source, age and author; description; image (newsapi.org).
  case standard
  /// Title, two lines of description, image; in full: image first, the author's e-mail and the
  /// release date (the articles API).
  case release
  /// Headline and the day it was last updated; in full: headline, last updated, introduction
  /// (BBC-style headlines).
  case dated
}
