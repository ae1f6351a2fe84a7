import FeedParsing
import Foundation
import NewsCore

/// Sends an article to a command of `"commands"` (``ArticleCommand``): its link, its ITEM
/// document or its text on standard input, `NEWS_ITEM_*` in its environment, run as hooks are.
enum ArticleSender {
  /// Runs `command` for `article`; `nil` when it exited 0, else why it failed (its exit status,
  /// its signal, its time, or an article without the link it asks for).
  static func send(
    _ article: Article, to command: ArticleCommand, services: NewsServices, context: Context
  ) async -> String? {
    let input: String
    switch command.input {
    case .url:
      guard let url = article.url else {
        return "command '\(command.name)' not run: the article has no link (its input is url)"
      }
      input = url + "\n"
    case .json:
      input = ArticleJSON.article(article, read: false).serialized(pretty: false) + "\n"
    case .text:
      let renderer = ArticleRenderer(
        style: Style(terminal: false, noColor: true, environment: [:]), width: 80,
        unicode: true, timeZone: context.timeZone,
        layout: context.providers.layout(of: article.provider))
      input = renderer.render(article, likes: nil, comments: nil, showCounts: false)
    }
    let run = HookRunner.Run(
      label: "command '\(command.name)'", input: Data(input.utf8),
      variables: HookRunner.itemVariables(article))
    return await services.hookRunner(environment: context.environment).run(command.run, [run])
      .first
  }
}
