import Foundation
import TestSupport
import Testing

@testable import FeedParsing
@testable import NewsCore

/// Enclosures in every format: what podcasts are made of.
@Suite("Enclosures")
struct EnclosureTests {
  func items(_ text: String) throws -> [FeedItem] {
    try SyndicationAdapter().items(from: Data(text.utf8), source: "p")
  }

  @Test("RSS enclosure with itunes:duration; a media:content repeating it adds what it says")
  func rss() throws {
    let xml = """
      <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
        xmlns:media="http://search.yahoo.com/mrss/"><channel><title>Cast</title>
      <item><title>Episode 1</title><link>https://cast.example/1</link>
      <enclosure url="https://cdn.example/ep1.mp3" length="48213000" type="audio/MPEG"/>
      <media:content url="https://cdn.example/ep1.mp3" duration="2530"/>
      <media:content url="https://cast.example/ep1.mp4" medium="video"/>
      <itunes:duration>42:10</itunes:duration></item>
      <item><title>Cover</title><enclosure url="https://cdn.example/cover.jpg" type="image/jpeg" length="0"/></item>
      </channel></rss>
      """
    let items = try items(xml)
    #expect(
      items[0].enclosures == [
        Enclosure(
          url: "https://cdn.example/ep1.mp3", type: "audio/mpeg", length: 48_213_000, duration: 2530
        ),
        Enclosure(
          url: "https://cast.example/ep1.mp4", type: "video/*", length: nil, duration: 2530),
      ])
    #expect(
      items[1].enclosures == [Enclosure(url: "https://cdn.example/cover.jpg", type: "image/jpeg")])
    #expect(items[1].imageURL == "https://cdn.example/cover.jpg")
    #expect(!items[1].enclosures[0].isMedia && items[0].enclosures[0].isMedia)
  }

  @Test("Atom rel=enclosure links, and JSON Feed attachments")
  func atomAndJSON() throws {
    let atom = """
      <feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><entry><title>E</title>
      <link rel="alternate" href="https://a.example/e"/>
      <link rel="enclosure" type="audio/ogg" length="1200" href="https://a.example/e.ogg"/>
      <link rel="enclosure" href="javascript:alert(1)"/></entry></feed>
      """
    #expect(
      try items(atom).first?.enclosures == [
        Enclosure(url: "https://a.example/e.ogg", type: "audio/ogg", length: 1200)
      ])
    let json = """
      {"version": "https://jsonfeed.org/version/1.1", "title": "t", "items": [{"id": "1",
       "url": "https://j.example/1", "title": "One", "attachments": [
        {"url": "https://j.example/1.m4a", "mime_type": "audio/x-m4a", "size_in_bytes": 89970236,
         "duration_in_seconds": 6629.5},
        {"url": "https://j.example/1.m4a", "mime_type": "audio/x-m4a"},
        {"mime_type": "no url"}]}]}
      """
    #expect(
      try items(json).first?.enclosures == [
        Enclosure(
          url: "https://j.example/1.m4a", type: "audio/x-m4a", length: 89_970_236, duration: 6629)
      ])
  }

  @Test(
    "durations as feeds write them",
    arguments: [
      ("3600", 3600), ("59:30", 3570), ("1:02:03", 3723), (" 42:10.5 ", 2530), ("1:2:3:4", nil),
      ("abc", nil), ("", nil), ("-5", nil),
    ] as [(String, Int?)])
  func durations(text: String, seconds: Int?) {
    #expect(Enclosure.seconds(text) == seconds)
  }
}
