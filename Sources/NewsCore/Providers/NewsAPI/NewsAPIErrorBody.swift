/// newsapi.org's error body: `{"status":"error","code":…,"message":…}`.
struct NewsAPIErrorBody: Decodable {
  var status: String
  var code: String
  var message: String?
}
