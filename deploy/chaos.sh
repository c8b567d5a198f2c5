#!/usr/bin/env bash
# Longer experiments on overload, on the release build (the longer fault run is
# deploy/faults.sh). Each part is a function of its own; with no arguments every part runs,
# else the parts named:
#   deploy/chaos.sh                 # everything
#   deploy/chaos.sh overload        # one part
# Results go to deploy/benchmarks/chaos/ (JSON from intentctl bench, RSS samples).
set -euo pipefail
cd "$(dirname "$0")/.."
source deploy/setup.sh
swift build -c release
bin="$(swift build -c release --show-bin-path)"
out="${OUT:-deploy/benchmarks/chaos}"
mkdir -p "$out"

# A release intentd in a fresh state directory, with its RSS sampled every 0.5 s into
# "$out/$1-rss.txt" (seconds, kB); sets host_pid, host_state and sampler_pid.
start_host() {
    local name=$1; shift
    host_state="$(mktemp -d)"
    chmod 700 "$host_state"
    "$bin/intentd" --state-dir "$host_state" "$@" > "$out/$name-host.log" 2>&1 &
    host_pid=$!
    (while kill -0 "$host_pid" 2>/dev/null; do
        echo "$(date +%s.%N | cut -c1-14) $(awk '/VmRSS/ {print $2}' "/proc/$host_pid/status" 2>/dev/null)"
        sleep 0.5
    done) > "$out/$name-rss.txt" &
    sampler_pid=$!
    "$bin/intentctl" wait --state-dir "$host_state" --for 30 Bench > /dev/null
}

stop_host() {
    kill "$host_pid" 2>/dev/null || true
    wait "$host_pid" 2>/dev/null || true
    wait "$sampler_pid" 2>/dev/null || true
    rm -rf "$host_state"
}

# --- overload: admission limits under a flood (README, "Overload") -----------------------
# 7. Three rounds of: the unloaded lifecycle latency (one outstanding), capacity (closed
#    loop, 32 outstanding, 10 s), then open loop at twice that capacity for 30 s with no cap
#    on outstanding requests. Admitted requests' latency, goodput, `overloaded` refusals
#    and their latency, and the host's RSS throughout (the sampler) and after.
# 8. A client that sends 10,000 requests with 100 KB replies and never reads, then leaves,
#    and 2,000 fake registrations: the tests that check these, run on the release build
#    with the full count; they print the host's RSS before, during and after.
overload() {
    local bench=("$bin/intentctl" bench --quiet --json --mode lifecycle)
    start_host overload --extensions bench
    for i in 1 2 3; do
        "${bench[@]}" --state-dir "$host_state" --requests 5000 --concurrency 1 > "$out/overload-unloaded-$i.json"
        "${bench[@]}" --state-dir "$host_state" --duration 10 --concurrency 32 > "$out/overload-capacity-$i.json"
        local rate
        rate=$(python3 -c "import json,sys; print(int(2 * json.load(open(sys.argv[1]))['result']['succeededPerSecond']))" \
            "$out/overload-capacity-$i.json")
        echo "round $i: open loop at $rate/s, twice the capacity just measured" >&2
        "${bench[@]}" --state-dir "$host_state" --rate "$rate" --duration 30 --max-outstanding 0 > "$out/overload-flood-$i.json"
    done
    sleep 5
    stop_host
    python3 - "$out" <<'EOF'
import json, statistics, sys
out = sys.argv[1]
for i in (1, 2, 3):
    u = json.load(open(f"{out}/overload-unloaded-{i}.json"))["result"]
    c = json.load(open(f"{out}/overload-capacity-{i}.json"))["result"]
    f = json.load(open(f"{out}/overload-flood-{i}.json"))
    r = f["result"]
    host = next(p for p in f["processes"] if p["name"] == "intentd")
    print(f"round {i}: unloaded p99 {u['latencyMicroseconds']['p99']} µs, capacity {c['succeededPerSecond']:.0f}/s; "
          f"flood: goodput {r['succeededPerSecond']:.0f}/s ({r['succeededPerSecond'] / c['succeededPerSecond']:.0%}), "
          f"admitted p50 {r['latencyMicroseconds']['p50']} p99 {r['latencyMicroseconds']['p99']} µs "
          f"({r['latencyMicroseconds']['p99'] / u['latencyMicroseconds']['p99']:.1f}x unloaded p99), "
          f"overloaded {r['overloaded']} in p50 {r['refusalLatencyMicroseconds']['p50']} p99 {r['refusalLatencyMicroseconds']['p99']} µs, "
          f"errors {r['errors']}, host peak RSS {host['peakResidentBytes'] / 2**20:.1f} MiB; "
          f"the generator sent late by p50 {r.get('sendLagMicroseconds', {}).get('p50', 0)} "
          f"p99 {r.get('sendLagMicroseconds', {}).get('p99', 0)} µs; refusals from sending p50 "
          f"{(r.get('refusalRoundTripMicroseconds') or {}).get('p50', 0)} p99 {(r.get('refusalRoundTripMicroseconds') or {}).get('p99', 0)} µs")
rss = [int(line.split()[1]) for line in open(f"{out}/overload-rss.txt") if len(line.split()) == 2]
print(f"host RSS throughout: max {max(rss) / 1024:.1f} MiB, last {rss[-1] / 1024:.1f} MiB")
EOF
    INTENTD_PRODUCTS="$bin" INTENTD_CHAOS_REQUESTS=10000 swift test \
        --filter 'memoryReturnsAfterNonReadingClientLeaves|registrationFloodIsBounded' 2>&1 | grep -E 'RSS|passed|failed'
}

# --- end of overload ----------------------------------------------------------------------

parts=("$@")
[ ${#parts[@]} -eq 0 ] && parts=(overload)
for part in "${parts[@]}"; do "$part"; done
