#!/bin/sh
# Usage: run.sh [SECONDS] [CORPUS...]. Runs each libFuzzer target (or only those of the corpora
# named, e.g. browser-source) for SECONDS (default 60; 0: no limit) on a working corpus under
# .build/fuzz seeded from Tests/Fuzz/corpus; inputs that crash land in .build/fuzz/crashes/CORPUS.
# Exits 1 on any. FUZZ_RUNS stops each after that many executions; FUZZ_BIN is where the targets
# are (default Tests/Fuzz/.build/release, built by
# (cd Tests/Fuzz && swift build -c release -Xswiftc -sanitize=fuzzer,address)).
set -u
# The Swift runtime's backtracer would take a trap before libFuzzer, which then saves no crash input.
export SWIFT_BACKTRACE=enable=no
seconds=${1:-60}
[ $# -gt 0 ] && shift
only="$*"
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${FUZZ_BIN:-"$root/Tests/Fuzz/.build/release"}
status=0
for pair in commands:FuzzCommands comments:FuzzComments filter-settings:FuzzFilterSettings static-paths:FuzzStaticPaths ingest:FuzzIngest \
        cube:FuzzCubeParser look:FuzzLookParser browser-source:FuzzBrowserSource upload-probe:FuzzUploadProbe still-picture:FuzzStillPicture \
        kept-picture:FuzzKeptPicture; do
    corpus=${pair%%:*}; target=${pair##*:}
    case " ${only:-$corpus} " in *" $corpus "*) ;; *) continue ;; esac
    work="$root/.build/fuzz/corpus/$corpus"; crashes="$root/.build/fuzz/crashes/$corpus"
    mkdir -p "$work" "$crashes"
    start=$(date +%s)
    "$bin/$target" -max_total_time="$seconds" ${FUZZ_RUNS:+-runs="$FUZZ_RUNS"} -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$crashes/" "$work" "$root/Tests/Fuzz/corpus/$corpus" \
        > "$root/.build/fuzz/$corpus.log" 2>&1
    result=$?
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$root/.build/fuzz/$corpus.log" | grep -o '[0-9]*$')
    echo "fuzz $target: ${runs:-?} executions in $(($(date +%s) - start)) s, exit $result, corpus $(ls "$work" | wc -l) inputs"
    if [ "$result" -ne 0 ]; then
        status=1
        grep -E 'ERROR|Fatal|precondition|SUMMARY' "$root/.build/fuzz/$corpus.log" | head -5
        echo "  crash inputs: $crashes (copy each to Tests/Fuzz/regressions/$corpus/ with its fix)"
    fi
done
exit $status
