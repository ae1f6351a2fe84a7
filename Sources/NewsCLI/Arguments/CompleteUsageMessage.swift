/// A usage error whose message is complete as it is: no `(see 'news … --help')` is added.
protocol CompleteUsageMessage {}
