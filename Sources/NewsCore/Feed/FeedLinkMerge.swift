/// The rule for one link carried by several sources: it is **one article**, with one id.
///
/// In a list of several sources the item is shown once, under the first source that lists it
/// (sources in their configured order: the built-in ones, then `config.json`'s), with its title,
/// text and dates; the later sources are named in ``FeedItem/alsoIn`` (JSON `sources`): the
/// sources as listed (a saved search by its name, not the feed its item is of). The order
/// of sources is the configuration's, so the copy shown is the same on every refresh, and the
/// store answers a lookup by id with the same copy (``ArticleStore/providerOrder``).
public enum FeedLinkMerge {
  /// Takes every id after its first occurrence out of `packs` (the items of the sources
  /// `names`, in order), and returns the later sources listing each id that has some, in order:
  /// its ``FeedItem/alsoIn``. Only ids are read: 50,000 items of 1,000 feeds are not decoded to
  /// find the few links two feeds share.
  public static func merge(_ packs: inout [FeedItemPack], names: [String]) -> [String: [String]] {
    var first: [String: Int] = [:]
    first.reserveCapacity(packs.reduce(0) { $0 + $1.count })
    var alsoIn: [String: [String]] = [:]
    for index in packs.indices {
      let source = names[index]
      packs[index].filter { id in
        // One hash for an id seen first, the many: the rare id seen before gets its first
        // source back.
        guard let listedBy = first.updateValue(index, forKey: id) else { return true }
        first[id] = listedBy
        if listedBy != index, !(alsoIn[id]?.contains(source) ?? false) {
          alsoIn[id, default: []].append(source)
        }
        return false
      }
    }
    return alsoIn
  }
}
