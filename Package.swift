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
    .target(name: "NewsCore", dependencies: ["CCurl"]),
    .target(name: "NewsCLI", dependencies: ["NewsCore"]),
    .executableTarget(name: "news", dependencies: ["NewsCLI"]),
    .target(
      name: "TestSupport", dependencies: ["NewsCore"], path: "Tests/TestSupport",
      exclude: ["Fixtures"]),
    // Helpers for Benchmarks/run.sh (filling a store, timing the cipher); not shipped.
    .executableTarget(
      name: "news-benchmark", dependencies: ["NewsCore"], path: "Benchmarks/Tool"),
    .testTarget(
      name: "NewsCoreTests",
      dependencies: ["NewsCore", "TestSupport"]
    ),
    .testTarget(
      name: "NewsCLITests",
      dependencies: ["NewsCLI", "NewsCore", "TestSupport", "news"],
      exclude: ["Golden"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
