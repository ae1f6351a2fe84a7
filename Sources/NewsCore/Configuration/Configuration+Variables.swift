/// Every variable the program reads, with its meaning: the manual page and `.env.example` list
/// the same ones.
extension Configuration {
  public static let variables: [(name: String, meaning: String)] = [
    ("NEWSAPI_KEY", "newsapi.org API key; needed by headlines and search --online."),
    ("NEWSAPI_KEY_FILE", "A file holding the key (it does not leak into child processes)."),
    ("NEWSAPI_URL", "newsapi.org base URL (default https://newsapi.org)."),
    ("NEWS_INFO_URL", "Likes and comments API base URL."),
    ("NEWS_BBC_URL", "BBC-style headlines JSON."),
    ("NEWS_ANALYTICS_URL", "Analytics endpoint."),
    ("NEWS_ARTICLES_URL", "Articles API."),
    ("NEWS_FEED_A_URL, NEWS_FEED_B_URL, NEWS_FEED_C_URL", "Feed sources A, B and C."),
    ("NEWS_FEED_<NAME>_TTL", "Time to live of a feed source, in seconds (A 300, B 1800, C 3600)."),
    (
      "NEWS_REFRESH_MIN",
      "Shortest seconds between two fetches of a source without its own ttl (default: its default ttl, 900 for a web feed)."
    ),
    (
      "NEWS_REFRESH_MAX",
      "Longest seconds a source's posting rate keeps it between fetches (default 86400)."
    ),
    ("NEWS_CONFIG", "The feed configuration file (default config.json in the config directory)."),
    ("NEWS_HOME", "One absolute directory for all files (default: the XDG directories)."),
    ("NEWS_RETRY_DELAY", "Seconds between retries, decimals allowed (default 2)."),
    ("NEWS_TIMEOUT", "Seconds a request may take (default 15)."),
    ("NEWS_STORE_KEY", "The store key as base64 (32 bytes), instead of the key file."),
    (
      "NEWS_RETENTION_DAYS",
      "Days an article is kept after it was last seen (default 30; 0: no limit)."
    ),
    ("NEWS_RETENTION_MAX", "Articles kept per provider (default 5000; 0: no limit)."),
    (
      "DO_NOT_TRACK, NEWS_ANALYTICS", "DO_NOT_TRACK=1 or NEWS_ANALYTICS=off switches analytics off."
    ),
    ("NEWS_COUNTRY", "Default country of top headlines, two letters (default us)."),
    ("NEWS_CATEGORY", "Default category of top headlines (default: all)."),
    ("NEWS_LANGUAGE", "Default language of search --online, two letters (default: all)."),
    ("NEWS_COUNTS_DEADLINE", "Seconds show waits for likes and comments in all (default 3)."),
    ("NEWS_HOOK_TIMEOUT", "Seconds one run of a hook may take before it is stopped (default 30)."),
    (
      "NEWS_PLAYER",
      "The command an episode's file or URL is played with (%s places it; default: mpv, else the opener)."
    ),
    (
      "NEWS_DOWNLOAD_DIR",
      "Where downloads go (default: the XDG download directory, else ~/Downloads)."
    ),
    (
      "NEWS_DOWNLOAD_NAME",
      "A downloaded file's name: {source} {date} {title} {ext} {id} {n} (default {source}/{date} {title}.{ext})."
    ),
    ("NEWS_DOWNLOAD_CONCURRENCY", "Files downloaded at once (default 3)."),
    (
      "NEWS_DOWNLOAD_MAX",
      "The largest file a download accepts: bytes, or 500M, 4G (default 4G)."
    ),
    (
      "NEWS_FULLTEXT_CONCURRENCY",
      "Article pages fetched at once for full text by feed and sync (default 4)."
    ),
    (
      "NEWS_COUNTS",
      "Which articles show asks likes and comments for: newsapi (default), all, or off."
    ),
    (
      "NEWS_BROWSE_ORDER",
      "The order of browse's lists: newest (first, the default) or source (as each source lists them)."
    ),
    (
      "NEWS_SOURCE_DEADLINE",
      "Seconds feed and sync give one source in all, retries included (default 30)."
    ),
    ("NEWS_CONCURRENCY", "Requests in flight at once, in all (default 96)."),
    ("NEWS_HOST_CONCURRENCY", "Requests in flight at once to one host (default 12)."),
    ("NO_COLOR", "Set to anything: no colour or styles, even on a terminal."),
    ("COLUMNS", "Width to wrap text to (default: the terminal's, 80 in a pipe)."),
  ]
}
