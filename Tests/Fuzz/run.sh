#!/bin/sh
# Runs each libFuzzer target for SECONDS (default 60) on a working corpus under .build/fuzz seeded
# from Tests/Fuzz/corpus; inputs that crash land in .build/fuzz/crashes/TARGET. Exits 1 on any.
# Expects the targets built: (cd Tests/Fuzz && swift build -c release -Xswiftc -sanitize=fuzzer,address)
set -u
seconds=${1:-60}
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="$root/Tests/Fuzz/.build/release"
status=0
for pair in commands:FuzzCommands filter-settings:FuzzFilterSettings static-paths:FuzzStaticPaths ingest:FuzzIngest \
        browser-source:FuzzBrowserSource upload-probe:FuzzUploadProbe; do
    corpus=${pair%%:*}; target=${pair##*:}
    work="$root/.build/fuzz/corpus/$corpus"; crashes="$root/.build/fuzz/crashes/$corpus"
    mkdir -p "$work" "$crashes"
    "$bin/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$crashes/" "$work" "$root/Tests/Fuzz/corpus/$corpus" > "$root/.build/fuzz/$corpus.log" 2>&1
    result=$?
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$root/.build/fuzz/$corpus.log" | grep -o '[0-9]*$')
    echo "fuzz $target: ${runs:-?} executions in ${seconds} s, exit $result, corpus $(ls "$work" | wc -l) inputs"
    if [ "$result" -ne 0 ]; then
        status=1
        grep -E 'ERROR|Fatal|precondition|SUMMARY' "$root/.build/fuzz/$corpus.log" | head -5
        echo "  crash inputs: $crashes (copy each to Tests/Fuzz/regressions/$corpus/ with its fix)"
    fi
done
exit $status
