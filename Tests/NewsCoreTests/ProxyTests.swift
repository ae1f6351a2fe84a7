import Foundation
import TestSupport
import Testing

@testable import FeedParsing
@testable import NewsCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Proxies from the environment, as curl reads them (upper-case `HTTP_PROXY` too), `no_proxy`,
/// and a proxy that cannot be reached named as the proxy, not as the server.
@Suite("Proxies: chosen from the environment, and named when they fail")
struct ProxyTests {
  @Test(
    "the proxy for a URL",
    arguments: [
      ("http://a.org/x", ["http_proxy": "p1:3128"], "http_proxy"),
      ("http://a.org/x", ["HTTP_PROXY": "p1:3128"], "HTTP_PROXY"),
      ("http://a.org/x", ["HTTP_PROXY": "p1", "http_proxy": "p2"], "http_proxy"),
      ("https://a.org/x", ["http_proxy": "p1"], nil),
      ("https://a.org/x", ["HTTPS_PROXY": "p1"], "HTTPS_PROXY"),
      ("https://a.org/x", ["all_proxy": "p1"], "all_proxy"),
      ("https://a.org/x", ["https_proxy": "p1", "no_proxy": "example.com,a.org"], nil),
      ("https://news.a.org/x", ["https_proxy": "p1", "NO_PROXY": ".a.org"], nil),
      ("https://ba.org/x", ["https_proxy": "p1", "no_proxy": "a.org"], "https_proxy"),
      ("http://127.0.0.1:8080/x", ["http_proxy": "p1", "no_proxy": "127.0.0.1:8080"], nil),
      ("http://a.org/x", ["http_proxy": "p1", "no_proxy": "*"], nil),
      ("http://a.org/x", ["http_proxy": " "], nil),
    ] as [(String, [String: String], String?)])
  func choice(url: String, environment: [String: String], variable: String?) throws {
    let proxy = ProxySettings(environment: environment).proxy(for: try #require(URL(string: url)))
    #expect(proxy?.variable == variable)
  }

  @Test("a request goes through HTTP_PROXY (curl), the URL whole in its request line")
  func throughProxy() async throws {
    let proxy = try LoopbackServer()
    proxy.route(prefix: "/") { _ in .json("{}") }
    let client = try #require(
      CurlHTTPClient(environment: ["HTTP_PROXY": proxy.baseURL.absoluteString]))
    let request = OutgoingRequest(url: try #require(URL(string: "http://feeds.invalid/rss.xml")))
    let response = try await client.send(request)
    #expect(response.status == 200 || response.status == 404)
    #expect(proxy.requests.first?.target == "http://feeds.invalid/rss.xml")
  }

  @Test("a proxy that cannot be reached is named as the proxy, with its variable")
  func deadProxy() async throws {
    let server = try LoopbackServer()
    server.route("/x", .json("{}"))
    let closed = try ClosedPort()
    let client = try #require(
      CurlHTTPClient(environment: ["http_proxy": closed.baseURL.absoluteString]))
    let transport = HTTPTransport(
      client: client, retryPolicy: RetryPolicy(retries: 0, delay: .zero), timing: .test())
    await #expect {
      _ = try await transport.get(server.baseURL.appendingPathComponent("x"))
    } throws: { error in
      let message = (error as? HTTPError)?.message ?? ""
      return message.contains("the proxy 127.0.0.1:\(closed.baseURL.port ?? 0) (http_proxy)")
        && message.contains("refused")
    }
    #expect(server.requests.isEmpty)
  }
}
