/// Every file name of the store, in one place (each is `<name>.enc` on disk; see docs/store.md
/// for what each holds). Nothing else spells a store file name.
enum StoreLayout {
  /// Proves the key: a known plaintext (data and cache directories).
  static let keyCheck = EncryptedStore.keyCheckName
  /// The article segments' manifest: the commit point (``SegmentManifest``).
  static let segmentManifest = "segments"
  /// The generation of the last segment manifest committed (``SegmentHead``).
  static let segmentHead = "segments-head"
  /// What every segment file's name starts with.
  static let segmentPrefix = "seg-"
  /// What every segment pack's name starts with (``SegmentPack``).
  static let segmentPackPrefix = "segs-"
  /// What the article files of earlier versions (one a provider: `articles-bbc`) start with;
  /// migrated into segments, then removed.
  static let legacyArticlesPrefix = "articles-"
  /// The listings index: query → listing file (``ListingIndex``).
  static let listingIndex = "listings"
  /// What every listing file's name starts with.
  static let listingPrefix = "listing-"
  /// What the last list command showed, for `news show 3`.
  static let lastListing = "last-listing"
  /// The bookmarked articles.
  static let bookmarks = "bookmarks"
  /// Every read mark, in one file: the layout of earlier versions (``ReadMarks``).
  static let readMarks = "read"
  /// What every file of read marks (one a shard, ``ReadMarks``) starts with.
  static let readMarksShardPrefix = "read-"
  /// The changes to the read marks since they were last merged (``ReadMarksLog``).
  static let readMarksLog = "read-log"
  /// The segments every article of which was read when a query last looked
  /// (``FullyReadSegments``): `is:unread` passes them over.
  static let fullyRead = "fully-read"
  /// When each feed source last answered `304` (``RevalidationTimes``; cache directory).
  static let revalidated = "revalidated"
  /// Until when each feed source asked not to be asked again (``FeedBackoff``; cache directory).
  static let backoff = "backoff"
  /// Which feed sources are failing, since when (``FeedFailures``; cache directory).
  static let failures = "failures"
  /// When each item was first seen, in one file: the layout of a version before
  /// ``arrivalsShard(_:)``, folded into the shards by the next write.
  static let arrivals = "arrivals"
  /// What every file of first-seen times starts with (``ArticleStore/noteArrivals(_:at:)``).
  static let arrivalsPrefix = "arrivals-"
  /// The items a `newItem` hook ran for (``ArticleStore/claimHookRuns(_:at:)``).
  static let hookLedger = "hooked"
  /// The enclosures downloaded, or being downloaded (``ArticleStore/downloads()``).
  static let downloads = "downloads"
  /// What every full-text file's name starts with (``ArticleStore/fullText(of:)``).
  static let fullTextPrefix = "fulltext-"
  /// What every enclosures file's name starts with (``ArticleStore/enclosures(of:)``).
  static let enclosuresPrefix = "enclosures-"
  /// What every feed cache entry's name started with, one file a source (cache directory):
  /// read, and folded into bundles by the next write of the cache (``FeedCache``).
  static let feedCachePrefix = "feed-"
  /// Where each source's cache entry is, with what `news sources` needs of it (cache directory).
  static let feedIndex = "feeds"
  /// What every bundle of feed cache entries' name starts with: `feeds-<n>` (cache directory).
  static let feedBundlePrefix = "feeds-"
  /// The accounts on the reader's servers, with their passwords (``AccountSecret``).
  static let accounts = "accounts"
  /// What every file of an account starts with: `account-<name>` (``AccountState``),
  /// `account-<name>-items` (``AccountItems``), `account-<name>-outbox` (``AccountOutbox``).
  static let accountPrefix = "account-"
  /// What every file of item numbers starts with: `numbers-00` … `numbers-3f`
  /// (``ArticleStore/itemNumbers(for:pruning:)``).
  static let itemNumbersPrefix = "numbers-"
  /// The next item number to give (``ArticleStore/itemNumbers(for:pruning:)``).
  static let itemNumbersNext = "numbers"
  /// The password `news serve` asks for (``ServerLogin``).
  static let serverLogin = "serve-login"

  /// The state of account `name`: `account-home`.
  static func accountState(_ name: String) -> String { accountPrefix + name }

  /// The item ids of account `name`: `account-home-items`.
  static func accountItems(_ name: String) -> String { accountPrefix + name + "-items" }

  /// The marks account `name` has still to be sent: `account-home-outbox`.
  static func accountOutbox(_ name: String) -> String { accountPrefix + name + "-outbox" }

  /// The listing file of `slot`: `listing-7`.
  static func listing(_ slot: Int) -> String { listingPrefix + String(slot) }

  /// The file of read marks of shard `index`: `read-00` … `read-ff`.
  static func readMarksShard(_ index: Int) -> String {
    let digits = String(index, radix: 16)
    return readMarksShardPrefix + (digits.count < 2 ? "0" + digits : digits)
  }

  /// The full texts of the ids hashing to `index`: `fulltext-00` … `fulltext-3f`.
  static func fullTextShard(_ index: Int) -> String { fullTextPrefix + hexShard(index) }

  /// The enclosures of the ids hashing to `index`: `enclosures-00` … `enclosures-3f`.
  static func enclosuresShard(_ index: Int) -> String { enclosuresPrefix + hexShard(index) }

  /// The first-seen times of the ids hashing to `index`: `arrivals-00` … `arrivals-3f`.
  static func arrivalsShard(_ index: Int) -> String { arrivalsPrefix + hexShard(index) }

  /// The item numbers of the ids hashing to `index`: `numbers-00` … `numbers-3f`.
  static func itemNumbersShard(_ index: Int) -> String { itemNumbersPrefix + hexShard(index) }

  /// `index` as two hexadecimal digits.
  private static func hexShard(_ index: Int) -> String {
    let digits = String(index, radix: 16)
    return digits.count < 2 ? "0" + digits : digits
  }

  /// The cache entry of the feed source `source` as earlier versions wrote it: `feed-hn`.
  static func feedCache(_ source: String) -> String { feedCachePrefix + source }

  /// The bundle of feed cache entries `number`: `feeds-7`.
  static func feedBundle(_ number: Int) -> String { feedBundlePrefix + String(number) }

  /// The number of the bundle of feed cache entries named `name`, if it is one.
  static func feedBundleNumber(_ name: String) -> Int? {
    guard name.hasPrefix(feedBundlePrefix) else { return nil }
    let digits = name.dropFirst(feedBundlePrefix.count)
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return Int(digits)
  }

  /// The segment file `seg-<number><suffix>` (`""`, `-ids`, `-c<k>`, `-p<j>`).
  static func segment(_ number: Int, _ suffix: String = "") -> String {
    segmentPrefix + String(number) + suffix
  }

  /// The segment pack `segs-<number>`.
  static func segmentPack(_ number: Int) -> String { segmentPackPrefix + String(number) }

  /// Files the program makes again by itself, which repair may remove: listings and feed caches.
  static func isRemade(_ name: String) -> Bool {
    name == listingIndex || name == lastListing || name.hasPrefix(listingPrefix)
      || name == segmentHead || name == failures || name == fullyRead
      || name.hasPrefix(feedCachePrefix) || name == feedIndex || name.hasPrefix(feedBundlePrefix)
      || name == revalidated || name == backoff
  }
}
