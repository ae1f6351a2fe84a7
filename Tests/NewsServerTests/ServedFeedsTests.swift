import Foundation
import NewsCore
import TestSupport
import Testing

@testable import NewsServer

@Suite("news serve: what is a feed to the apps")
struct ServedFeedsTests {
  @Test(
    "a provider that cannot be asked (newsapi.org without its key) is no feed; with its key it is",
    arguments: [(nil, false), ("k", true)] as [(String?, Bool)])
  func providerWithoutKey(key: String?, listed: Bool) throws {
    let directory = TemporaryDirectory()
    var environment = [
      "HOME": directory.url.path, "NEWS_HOME": directory.path("home"),
      "NEWS_STORE_KEY": Data(repeating: 7, count: 32).base64EncodedString(),
    ]
    environment["NEWSAPI_KEY"] = key
    let configuration = try Configuration(environment: environment)
    let services = NewsServices(
      configuration: configuration, configFile: try FeedConfigFile.load(configuration),
      dependencies: NewsDependencies(
        httpClient: URLSessionHTTPClient(), timing: .test(now: Date(timeIntervalSince1970: 0)),
        randomBytes: SecureRandom.bytes, timeZone: .gmt),
      providers: .builtIn)
    let names = try ServedLibrary.load(services).feeds.map(\.name)
    #expect(names.contains("newsapi") == listed, "\(names)")
  }
}
