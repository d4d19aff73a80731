#!/usr/bin/env bash
# Runs the report twice, one run right after the other, and prints what the two runs do
# not agree on: every table whose verdict (ahead / level / behind) changed or whose
# verdict ratio moved by more than 5 %, and every row whose ratio to its table's fastest
# moved by more than 5 %. The last line counts them. Options after the script's name go
# to both runs (e.g. `--only W4`, `--quick`, `--seconds 5`).
#
#     scripts/report-stability.sh [REPORT OPTIONS]
#
# BENCHMARKS.md records its output beside the runs it compared.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${STABILITY_OUT:-target/stability}"
cargo build --release --locked -p arena-kit-report
for run in a b; do
    echo "--- run $run (at ${SECONDS}s)" >&2
    target/release/arena-kit-report "$@" --out "$OUT/$run" >"$OUT-$run.txt" 2>&1 || {
        cat "$OUT-$run.txt"
        exit 1
    }
done
echo "--- the two runs compared (tables in $OUT-a.txt and $OUT-b.txt)"
target/release/arena-kit-report --compare "$OUT/a/report.json" "$OUT/b/report.json"
