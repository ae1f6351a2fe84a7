import Foundation

extension ArticleSegments {
  /// The plaintext a pack holds, about: a commit's small segments go into one pack until it
  /// holds this much, and a commit carries at most this much from older packs.
  static let packBytes = 2 << 20

  /// The small segments a commit made (their main files, by number), waiting for their pack.
  struct FreshSegments {
    var mains: [Int: [UInt8]] = [:]
    var bytes = 0
    /// The providers of `mains`.
    var providers = Set<String>()
    /// The packs the commit wrote so far.
    var packs = Set<Int>()

    mutating func add(number: Int, main: [UInt8], of provider: String) {
      mains[number] = main
      bytes += main.count
      providers.insert(provider)
    }
  }

  /// Writes `fresh` into a pack of its own, now (a commit of many sources, once they fill one):
  /// their places are set in `manifest`.
  func pack(
    _ fresh: inout FreshSegments, into manifest: inout SegmentManifest,
    in files: EncryptedStore.Transaction
  ) throws {
    guard !fresh.mains.isEmpty else { return }
    let written = try writePack(
      of: segments(numbered: Set(fresh.mains.keys), in: manifest), mains: fresh.mains,
      into: &manifest, in: files)
    fresh = FreshSegments(packs: fresh.packs.union([written]))
  }

  /// The last pack of a commit: `fresh` (which may be none), with the live segments of the packs
  /// `emptying`, of packs left half empty and of the newest small packs no more than twice what
  /// it holds (older than `since`, the commit's first number) carried along, and segments of
  /// earlier versions (files of their own) moved in; about ``packBytes`` carried and moved at
  /// most. Returns the segments moved out of files of their own (their files go with the
  /// commit).
  func finishPacking(
    _ fresh: FreshSegments, into manifest: inout SegmentManifest, since: Int,
    emptying: Set<Int> = [], in files: EncryptedStore.Transaction
  ) throws -> [SegmentInfo] {
    var live: [Int: (segments: Int, bytes: Int)] = [:]
    var total: [Int: Int] = [:]
    var unpacked: [SegmentInfo] = []
    var chosen: [SegmentInfo] = []
    for info in manifest.providers.values.joined() {
      if fresh.mains[info.number] != nil {
        chosen.append(info)
      } else if let place = info.pack {
        live[place.pack, default: (0, 0)].segments += 1
        live[place.pack, default: (0, 0)].bytes += place.length
        total[place.pack] = max(total[place.pack] ?? 0, SegmentPack.segmentCount(place))
      } else if info.chunks == 0 {
        unpacked.append(info)
      }
    }
    var carried = emptying
    var budget = Self.packBytes
    var newest = true
    for (pack, count) in total.sorted(by: { $0.key > $1.key }) where pack < since {
      let held = live[pack]!
      // The newest packs, while each is small beside what this pack holds so far: a pack of a
      // quarter of the most is full enough (a refresh's commits are not carried again and again).
      let small =
        newest && held.bytes <= 2 * (fresh.bytes + Self.packBytes - budget)
        && held.bytes < Self.packBytes / 4
      newest = small
      if emptying.contains(pack) || (small || 2 * held.segments <= count) && held.bytes <= budget {
        carried.insert(pack)
        budget -= held.bytes
      }
    }
    var mains = fresh.mains
    var moved: [SegmentInfo] = []
    for info in manifest.providers.values.joined() where carried.contains(info.pack?.pack ?? -1) {
      if let main = try readableMain(of: info) {
        mains[info.number] = main
        chosen.append(info)
      }
    }
    // Segments of earlier versions, a file each, moved in a bounded number a commit.
    for info in unpacked.sorted(by: { $0.number < $1.number }) {
      guard budget > 0, moved.count < Self.movedPerPack else { break }
      guard let main = try readableMain(of: info) else { continue }
      mains[info.number] = main
      chosen.append(info)
      moved.append(info)
      budget -= main.count
    }
    guard !chosen.isEmpty else { return [] }
    _ = try writePack(of: chosen, mains: mains, into: &manifest, in: files)
    return moved
  }

  /// Segments of earlier versions moved into a pack a commit, at most.
  static let movedPerPack = 64

  /// The main file of `info`, to carry it: `nil` when it does not read (damaged, or its file
  /// gone), and it stays where it is, named by the searches that open it, until a repair: what
  /// cannot be read is never rewritten.
  private func readableMain(of info: SegmentInfo) throws -> [UInt8]? {
    do {
      return try SegmentReader.main(of: info, in: store)
    } catch is SegmentFileMissing {
      return nil
    } catch let error as StoreError where error.isDamage {
      return nil
    }
  }

  /// The segments of `manifest` numbered `numbers`.
  private func segments(numbered numbers: Set<Int>, in manifest: SegmentManifest) -> [SegmentInfo] {
    manifest.providers.values.joined().filter { numbers.contains($0.number) }
  }

  /// Writes `segments` (their main files in `mains`) as a new pack numbered from `manifest`, sets
  /// their places in it, and answers its number.
  private func writePack(
    of segments: [SegmentInfo], mains: [Int: [UInt8]], into manifest: inout SegmentManifest,
    in files: EncryptedStore.Transaction
  ) throws -> Int {
    let number = manifest.next
    manifest.next += 1
    // In the order of their numbers: the same commit makes the same pack.
    let packed = try SegmentPack.write(
      number: number, segments: segments.sorted { $0.number < $1.number },
      main: { mains[$0.number]! }, in: files)
    var places: [Int: SegmentPlace] = [:]
    for info in packed { places[info.number] = info.pack }
    for provider in manifest.providers.keys {
      for index in manifest.providers[provider]!.indices {
        if let place = places[manifest.providers[provider]![index].number] {
          manifest.providers[provider]![index].pack = place
        }
      }
    }
    return number
  }
}
