extension HTTPResponse {
  /// Where a feed in the body came from, for reading it.
  public var origin: FeedOrigin {
    FeedOrigin(url: url, contentType: headers["content-type"])
  }
}
