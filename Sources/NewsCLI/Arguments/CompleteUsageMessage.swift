import NewsCore

/// A usage error whose message is complete as it is: no `(see 'news … --help')` is added.
protocol CompleteUsageMessage {}

/// A query's error ends with the query and a caret under the column: nothing is added.
extension ArticleQueryError: CompleteUsageMessage {}
