#!/usr/bin/env bash
# Reproduces the figures in the README's Benchmarks section: a release build, the host
# and extensions started by `intentctl bench --start-host` over ipc, each throughput and
# latency run between two runs of the C reference broker (one before, one after). The two
# target rows run five times each: this machine's speed drifts, so the README quotes the
# median and the range. Results go to deploy/benchmarks/.
#   deploy/bench.sh                       # everything (about 6 minutes)
#   REFERENCE=path/to/zmq-broker-limit.c deploy/bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source deploy/setup.sh
swift build -c release
bin="$(swift build -c release --show-bin-path)"
ref="${REFERENCE:-../shared/bench/zmq-broker-limit.c}"
out="${OUT:-deploy/benchmarks}"
mkdir -p "$out"
bench() { "$bin/intentctl" bench --quiet --start-host "$@"; }

rm -f "$out"/handle-32-*.json "$out"/handle-1-*.json
echo "handle-only, 32 outstanding, five runs against the reference" >&2
for i in 1 2 3 4 5; do bench --requests 200000 --concurrency 32 --reference "$ref" --json > "$out/handle-32-$i.json"; done
bench --requests 200000 --concurrency 32 --reference "$ref" --plot "$out/latency-32.svg" > "$out/handle-32-chart.txt"

echo "handle-only, one outstanding, five runs against the reference" >&2
for i in 1 2 3 4 5; do bench --requests 20000 --concurrency 1 --reference "$ref" --json > "$out/handle-1-$i.json"; done

echo "full lifecycle and handle-only against MonkeyChat and Bench" >&2
bench --extensions messaging --mode lifecycle --mix MonkeyChat.SendMessage --requests 3000 --concurrency 8 --json > "$out/lifecycle-monkeychat.json"
bench --extensions messaging --mix MonkeyChat.SendMessage --requests 3000 --concurrency 8 --json > "$out/handle-monkeychat.json"
bench --mode lifecycle --requests 50000 --concurrency 8 --json > "$out/lifecycle-bench.json"
bench --requests 50000 --concurrency 8 --json > "$out/handle-bench-8.json"

echo "60 s at a steady 5,000 requests/s, open loop" >&2
bench --rate 5000 --duration 60 --json > "$out/steady-60s.json"

echo "1, 2 and 4 bench instances" >&2
for n in 1 2 4; do bench --extensions "bench:$n" --requests 200000 --concurrency 32 --json > "$out/scale-$n.json"; done
echo "authentication on ipc: CURVE against PLAIN (the default), five runs each, alternating" >&2
for i in 1 2 3 4 5; do
    INTENTD_IPC_MECHANISM=curve bench --requests 200000 --concurrency 32 --reference "$ref" --json > "$out/ipc-curve-$i.json"
    bench --requests 200000 --concurrency 32 --reference "$ref" --json > "$out/ipc-plain-$i.json"
done
echo "results in $out" >&2
