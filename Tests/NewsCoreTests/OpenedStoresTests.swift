import Foundation
import TestSupport
import Testing

@testable import FeedParsing
@testable import NewsCore

@Suite("one key and one store per run")
struct OpenedStoresTests {
  @Test(
    "every service of a run shares one loaded key and one store per directory",
    arguments: [false, true])
  func once(separateCache: Bool) throws {
    let home = TemporaryDirectory()
    var environment = [
      "HOME": home.url.path, "NEWS_HOME": home.path("news"),
      "NEWS_STORE_KEY": Data(repeating: 7, count: 32).base64EncodedString(),
    ]
    if separateCache { environment["XDG_CACHE_HOME"] = home.path("cache") }
    let configuration = try Configuration(environment: environment)
    let services = NewsServices(
      configuration: configuration,
      dependencies: NewsDependencies(
        httpClient: UnimplementedHTTPClient(), timing: .test(), randomBytes: SecureRandom.bytes,
        timeZone: .gmt))
    _ = try services.articleStore()
    _ = try services.cacheStore()
    _ = try services.feed()
    _ = try services.sync()
    _ = try services.lists()
    try services.checkKey()
    try services.articleStore().markRead(["x"])
    #expect(services.opened.keyLoads == 1)
    let directories = Set(
      [configuration.paths.dataDirectory, configuration.paths.cacheDirectory].map(\.path))
    #expect(services.opened.storeCount == directories.count)
    // A second run opens its own.
    let next = NewsServices(configuration: configuration, dependencies: services.dependencies)
    #expect(try next.articleStore().readMarks().contains("x"))
    #expect(next.opened.keyLoads == 1)
  }
}
