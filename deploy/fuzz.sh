#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/ (with AddressSanitizer and leak detection) and runs
# each one, starting from its seed corpus in Fuzz/Corpus/TARGET.
#
#   deploy/fuzz.sh [SECONDS_PER_TARGET] [--runs N] [--jobs J] [--lean] [TARGET...]
#
# SECONDS_PER_TARGET (default 20) bounds each target's time; --runs N makes each one run N
# inputs instead (the longer run: --runs 10000000). --jobs J runs J processes of each target
# at once, sharing its corpus, each for the time given or for its share of the N inputs.
# --lean keeps AddressSanitizer from
# recording where each block was allocated and from holding freed blocks back: a target
# that allocates much (FuzzLanguage) runs about twice as fast, and crashes, leaks, overflows
# and hangs are still caught, but a use of freed heap memory may go unseen; a failing input
# is then run once more without --lean, for the full report. Targets run one after the other. Exits
# non-zero if any target crashes, leaks, breaks a property, takes over 10 s on one input or
# over 2 GB of memory; the input that did it is left in .build-fuzz/artifacts/TARGET/.
# New inputs that reach new code are kept in .build-fuzz/corpus/TARGET for the next run.
set -euo pipefail
cd "$(dirname "$0")/.."
source deploy/setup.sh

seconds=20
runs=""
jobs=1
lean=""
targets=()
while (($#)); do
    case "$1" in
        --runs) runs="${2:?--runs needs a number}"; shift 2 ;;
        --runs=*) runs="${1#--runs=}"; shift ;;
        --jobs) jobs="${2:?--jobs needs a number}"; shift 2 ;;
        --jobs=*) jobs="${1#--jobs=}"; shift ;;
        --lean) lean=1; shift ;;
        [0-9]*) seconds="$1"; shift ;;
        Fuzz*) targets+=("$1"); shift ;;
        *) echo "usage: deploy/fuzz.sh [SECONDS_PER_TARGET] [--runs N] [--jobs J] [--lean] [TARGET...]" >&2; exit 2 ;;
    esac
done
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: --jobs takes a positive number" >&2; exit 2; }
all=(FuzzWire FuzzJSON FuzzManifest FuzzVocabulary FuzzCatalog FuzzLanguage FuzzRequest)
((${#targets[@]})) || targets=("${all[@]}")

scratch=.build-fuzz
# --sanitize fuzzer makes SwiftPM link libFuzzer's main; the -sanitize flag after it (the
# last one counts) instruments every module for coverage and AddressSanitizer.
echo "fuzz: building the fuzz targets" >&2
mkdir -p "$scratch/logs"
# SwiftPM does not notice files added to the main package from here; planning anew does.
rm -f "$scratch/release.yaml"
# Nor does it always rebuild a target whose dependency's types changed size in between:
# the stale code then writes past a struct (AddressSanitizer reports a stack-buffer-overflow
# that is not in the source). When any source changed since the last build, build anew,
# keeping the corpus, artifacts and logs.
changed=""
if [ -f "$scratch/sources.stamp" ]; then
    changed=$(find Package.swift Sources Fuzz/Package.swift Fuzz/Sources -type f -newer "$scratch/sources.stamp" -print -quit)
fi
if [ ! -f "$scratch/sources.stamp" ] || [ -n "$changed" ]; then
    rm -rf "$scratch/x86_64-unknown-linux-gnu" "$scratch/release" "$scratch/build.db"
fi
touch "$scratch/sources.stamp.new"
if ! swift build --package-path Fuzz --scratch-path "$scratch" -c release \
    --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address >"$scratch/logs/build.log" 2>&1; then
    # gold warns about every ASan helper symbol; those lines are noise.
    grep -v "Cannot export local symbol" "$scratch/logs/build.log" | tail -40 >&2
    echo "fuzz: the build failed" >&2
    exit 1
fi
mv "$scratch/sources.stamp.new" "$scratch/sources.stamp"
bin="$scratch/release"

declare -A dictionary=([FuzzWire]=wire [FuzzJSON]=json [FuzzManifest]=plist [FuzzVocabulary]=plist [FuzzCatalog]=json [FuzzLanguage]=json)
declare -A maxlen=([FuzzCatalog]=16384 [FuzzLanguage]=65536)
# Leaks are checked after every input that allocated more than it freed. Not at exit:
# there LeakSanitizer misses pointers Swift keeps with enum tags in their spare bits
# (the compiled patterns of the language file a target holds for the whole run).
asan=detect_leaks=1:leak_check_at_exit=0
run_asan=$asan
[ -n "$lean" ] && run_asan=$asan:malloc_context_size=0:quarantine_size_mb=0

failed=()
for target in "${targets[@]}"; do
    [ -x "$bin/$target" ] || { echo "fuzz: $target did not build" >&2; failed+=("$target"); continue; }
    corpus="$scratch/corpus/$target" artifacts="$scratch/artifacts/$target/" log="$scratch/logs/$target.log"
    mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
    options=(-timeout=10 -rss_limit_mb=2048 -max_len="${maxlen[$target]:-4096}" -print_final_stats=1
        -artifact_prefix="$artifacts")
    [ -n "${dictionary[$target]:-}" ] && options+=(-dict="Fuzz/Dictionaries/${dictionary[$target]}.dict")
    if [ -n "$runs" ]; then options+=(-runs="$(((runs + jobs - 1) / jobs))"); else options+=(-max_total_time="$seconds"); fi
    # New inputs go to the first directory; the committed seeds are only read. Each job
    # writes its own log (TARGET.log, TARGET.1.log, ...) and picks up the others' new
    # inputs from the shared corpus as it runs.
    # The Swift runtime's backtracer reads the stack in a way AddressSanitizer reports as
    # an error of its own, hiding the real one; libFuzzer prints the stack instead.
    logs=("$log")
    for ((job = 1; job < jobs; job++)); do logs+=("${log%.log}.$job.log"); done
    pids=()
    for job_log in "${logs[@]}"; do
        SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=$run_asan "$bin/$target" "${options[@]}" "$corpus" "Fuzz/Corpus/$target" >"$job_log" 2>&1 &
        pids+=($!)
    done
    status=ok
    for index in "${!pids[@]}"; do
        wait "${pids[$index]}" && continue
        status=FAILED
        # A lean run's report lacks where the block came from: run the input again in full.
        job_log=${logs[$index]}
        input=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$job_log" | tail -1)
        if [ -n "$lean" ] && [ -f "$input" ]; then
            echo "== $input again, without --lean" >>"$job_log"
            SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=$asan "$bin/$target" -timeout=10 -rss_limit_mb=2048 "$input" >>"$job_log" 2>&1 || true
        fi
    done
    [ "$status" = ok ] || failed+=("$target")
    # Inputs and speed over all jobs.
    executed=$(cat "${logs[@]}" | sed -n 's/^stat::number_of_executed_units: *//p' | awk '{ n += $1 } END { if (NR) print n }')
    speed=$(cat "${logs[@]}" | sed -n 's/^stat::average_exec_per_sec: *//p' | awk '{ n += $1 } END { if (NR) print n }')
    printf 'fuzz: %-15s %-6s %12s inputs %8s exec/s  (log: %s)\n' "$target" "$status" "${executed:-?}" "${speed:-?}" "${logs[*]}" >&2
    if [ "$status" = FAILED ]; then
        cat "${logs[@]}" | grep -E "ERROR|SUMMARY|Fatal error|property broken|Test unit written" | head -20 >&2 || true
    fi
done
if ((${#failed[@]})); then
    echo "fuzz: failed: ${failed[*]} (inputs in $scratch/artifacts/)" >&2
    exit 1
fi
