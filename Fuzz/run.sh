#!/usr/bin/env bash
# Builds the libFuzzer targets (swiftc -sanitize=fuzzer) and runs each one for FUZZ_SECONDS
# (default 20) starting from the committed seed corpus in Fuzz/Corpus/<target>/. Any crash fails
# the run; the crashing input is left in .build/fuzz/ — copy it into the tests as a regression.
#
#   bash Fuzz/run.sh              # every target
#   FUZZ_SECONDS=300 bash Fuzz/run.sh store newsapi
set -uo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-20}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(newsapi articles bbc feed syndication subscriptions cache manifest store records search dotenv config text extract http)
out=.build/fuzz
mkdir -p "$out"

echo "== building the fuzzer"
# NewsCore imports the libcurl shim (Sources/CCurl): compiled apart, found through its module map.
clang -c -O2 -I Sources/CCurl/include Sources/CCurl/CCurl.c -o "$out/CCurl.o" \
  2> "$out/build.log" || { cat "$out/build.log"; exit 1; }
# The feed reader is a module of its own, built alone (it sees no store and no network), then
# NewsCore and the targets against it. `package` declarations need the one package name.
mkdir -p "$out/modules"
# shellcheck disable=SC2046
swiftc -sanitize=fuzzer,address -parse-as-library -module-name FeedParsing -package-name news -O \
  -wmo -emit-object -emit-module -emit-module-path "$out/modules/FeedParsing.swiftmodule" \
  $(find Sources/FeedParsing -name '*.swift' | sort) \
  -o "$out/FeedParsing.o" 2> "$out/build.log" || { cat "$out/build.log"; exit 1; }
# The HTTP layer of `news serve` is a module of its own too, knowing nothing of news.
# shellcheck disable=SC2046
swiftc -sanitize=fuzzer,address -parse-as-library -module-name Serving -package-name news -O \
  -wmo -emit-object -emit-module -emit-module-path "$out/modules/Serving.swiftmodule" \
  $(find Sources/Serving -name '*.swift' | sort) \
  -o "$out/Serving.o" 2> "$out/build.log" || { cat "$out/build.log"; exit 1; }
# shellcheck disable=SC2046
swiftc -sanitize=fuzzer,address -parse-as-library -module-name NewsCore -package-name news -O \
  -I Sources/CCurl/include -I "$out/modules" "$out/CCurl.o" "$out/FeedParsing.o" \
  "$out/Serving.o" -ldl \
  $(find Sources/NewsCore -name '*.swift' | sort) Fuzz/FuzzTargets.swift \
  -o "$out/news-fuzz" 2> "$out/build.log" || { cat "$out/build.log"; exit 1; }

# Seeds kept elsewhere: the extractor starts from the pages its tests read.
declare -A seeds=([extract]="Tests/TestSupport/Fixtures/pages")

failed=()
for target in "${targets[@]}"; do
  corpus="$out/corpus-$target"
  mkdir -p "$corpus"
  echo "== fuzzing $target for ${seconds}s"
  # Swift's own backtracer would stall on a crash; libFuzzer reports it instead.
  if FUZZ_TARGET="$target" SWIFT_BACKTRACE=enable=no LSAN_OPTIONS="suppressions=Fuzz/lsan.supp" \
      "$out/news-fuzz" \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$out/crash-$target-" "$corpus" "Fuzz/Corpus/$target" ${seeds[$target]:-} \
      > "$out/$target.log" 2>&1; then
    grep -E "stat::number_of_executed_units|Done [0-9]+ runs" "$out/$target.log" | tail -1
  else
    echo "!! $target crashed or failed; see $out/$target.log and $out/crash-$target-*"
    tail -30 "$out/$target.log"
    failed+=("$target")
  fi
done

passed=$((${#targets[@]} - ${#failed[@]}))
if [ ${#failed[@]} -gt 0 ]; then
  echo "failed targets: ${failed[*]}"
  echo "fuzz: $passed passed, ${#failed[@]} failed"
  exit 1
fi
echo "every target ran ${seconds}s without a crash"
echo "fuzz: $passed passed, 0 failed"
