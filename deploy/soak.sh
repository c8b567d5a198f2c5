#!/usr/bin/env bash
# The soak: one host with the bench extension, release build, driven open loop at half its
# measured capacity (handle-only, 32 outstanding) for MINUTES minutes (default 60), in
# one-minute slices. After each slice it records what was sent and answered, the latency
# percentiles and the host's resident memory, in deploy/benchmarks/soak.csv; the summary
# (first, last and worst minute) goes to deploy/benchmarks/soak-summary.txt.
#   deploy/soak.sh                 # about an hour
#   MINUTES=5 deploy/soak.sh       # a short one
#   BIN=.build/release deploy/soak.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source deploy/setup.sh
# BIN=DIR runs binaries built before (a release build folder) instead of building.
[ -n "${BIN:-}" ] || swift build -c release
bin="${BIN:-$(swift build -c release --show-bin-path)}"
out="${OUT:-deploy/benchmarks}"
minutes="${MINUTES:-60}"
mkdir -p "$out"
state="$(mktemp -d /tmp/intentd-soak-XXXXXX)"
chmod 700 "$state"
"$bin/intentd" --state-dir "$state" --extensions bench > "$state/intentd.log" 2>&1 &
host=$!
trap 'kill "$host" 2>/dev/null; wait "$host" 2>/dev/null; rm -rf "$state"' EXIT
"$bin/intentctl" wait Bench --state-dir "$state" --for 30 > /dev/null
ctl() { "$bin/intentctl" bench --state-dir "$state" --quiet --json "$@"; }

capacity="$(ctl --requests 200000 --concurrency 32 | python3 -c 'import json, sys; print(int(json.load(sys.stdin)["result"]["requestsPerSecond"]))')"
rate=$((capacity / 2))
echo "capacity $capacity/s (handle-only, 32 outstanding); soaking at $rate/s for $minutes minutes" >&2
echo "minute,sent,succeeded,overloaded,errors,p50_us,p99_us,host_rss_kib" > "$out/soak.csv"
for minute in $(seq 1 "$minutes"); do
    ctl --rate "$rate" --duration 60 --warmup 0 > "$state/slice.json"
    rss="$(awk '/^VmRSS/ {print $2}' "/proc/$host/status")"
    python3 - "$state/slice.json" "$minute" "$rss" >> "$out/soak.csv" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["result"]
errors = sum(r.get("errors", {}).values())
l = r["latencyMicroseconds"]  # empty when nothing succeeded
print(f'{sys.argv[2]},{r["sent"]},{r["succeeded"]},{r["overloaded"]},{errors},{l.get("p50", "")},{l.get("p99", "")},{sys.argv[3]}')
PY
    tail -1 "$out/soak.csv" >&2
done
python3 - "$out/soak.csv" "$capacity" "$rate" > "$out/soak-summary.txt" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def col(name): return [int(r[name]) for r in rows if r[name] != ""]
rss, p50, p99 = col("host_rss_kib"), col("p50_us") or [0], col("p99_us") or [0]  # a minute with no success has none
sent, ok, shed, errors = sum(col("sent")), sum(col("succeeded")), sum(col("overloaded")), sum(col("errors"))
print(f"capacity {sys.argv[2]}/s; soak at {sys.argv[3]}/s for {len(rows)} minutes: {sent} sent, {ok} succeeded, "
      f"{shed} refused overloaded, {errors} errors")
print(f"host RSS (MiB): minute 1 {rss[0]/1024:.1f}, last {rss[-1]/1024:.1f}, max {max(rss)/1024:.1f}")
print(f"p50 (us): minute 1 {p50[0]}, last {p50[-1]}, median {sorted(p50)[len(p50)//2]}, max {max(p50)}")
print(f"p99 (us): minute 1 {p99[0]}, last {p99[-1]}, median {sorted(p99)[len(p99)//2]}, max {max(p99)}")
PY
cat "$out/soak-summary.txt"
