/// What a channel is called above its items, as a value: the reader words it
/// (`Source hn`, `All unread`).
public enum ChannelHeading: Sendable, Equatable {
  /// A provider's list, under the provider's own heading for its query (`Top headlines · us`).
  case provider(String)
  /// A feed source, by name.
  case source(String)
  /// The bookmarks.
  case bookmarks
  /// Every unread item of the feeds.
  case allUnread
  /// The items of the feeds with a tag.
  case tag(String)
}
