// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "news",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "news", targets: ["news"]),
    .library(name: "NewsCore", targets: ["NewsCore"]),
  ],
  targets: [
    // libcurl reached at run time (dlopen), for the Linux client: see Sources/CCurl/include.
    .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
    // The feed reader, HTML to text, dates: pure functions of bytes, seeing no store and no
    // network (the compiler enforces it; the fuzzer builds it alone).
    .target(name: "FeedParsing"),
    .target(name: "NewsCore", dependencies: ["CCurl", "FeedParsing"]),
    // HTTP/1.1 on POSIX sockets, knowing nothing of news: `news serve`'s layer (#55), tested
    // and fuzzed alone.
    .target(name: "Serving"),
    // `news serve`'s Google Reader and Fever APIs: the Serving layer over NewsCore's services.
    .target(name: "NewsServer", dependencies: ["NewsCore", "FeedParsing", "Serving"]),
    .target(name: "NewsCLI", dependencies: ["NewsCore", "FeedParsing", "NewsServer", "Serving"]),
    .executableTarget(name: "news", dependencies: ["NewsCLI"]),
    .target(
      name: "TestSupport", dependencies: ["NewsCore"], path: "Tests/TestSupport",
      exclude: ["Fixtures"]),
    // Helpers for Benchmarks/run.sh (filling a store, timing the cipher); not shipped.
    .executableTarget(
      name: "news-benchmark", dependencies: ["NewsCore", "FeedParsing"], path: "Benchmarks/Tool"),
    .testTarget(
      name: "NewsCoreTests",
      dependencies: ["NewsCore", "FeedParsing", "TestSupport"]
    ),
    .testTarget(name: "ServingTests", dependencies: ["Serving"]),
    .testTarget(
      name: "NewsServerTests",
      dependencies: ["NewsServer", "NewsCore", "Serving", "TestSupport"]),
    .testTarget(
      name: "NewsCLITests",
      dependencies: ["NewsCLI", "NewsCore", "FeedParsing", "TestSupport", "news"],
      exclude: ["Golden"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
