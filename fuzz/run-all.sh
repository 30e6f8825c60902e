#!/usr/bin/env bash
# Runs every fuzz target in turn (or those named) for the given time each,
# with the SGF dictionary and the bundled cases as seeds; corpora grow in
# fuzz/corpus/TARGET (ignored by git), crashes land in fuzz/artifacts/TARGET.
#
#   fuzz/run-all.sh 600                  # every target, 10 minutes each
#   fuzz/run-all.sh 1800 replay index    # the named targets, 30 minutes each
#   JOBS=2 fuzz/run-all.sh 600           # two fuzzing processes per target
#
# Prints one line per target (runs, seconds, crashes) and exits 1 when any
# target found a crash. Needs cargo-fuzz (`cargo install cargo-fuzz`);
# runs on the stable toolchain through RUSTC_BOOTSTRAP=1.
set -uo pipefail
cd "$(dirname "$0")"
seconds="${1:?usage: fuzz/run-all.sh SECONDS [TARGET...]}"
shift
if [ "$#" -gt 0 ]; then
  targets=("$@")
else
  mapfile -t targets < <(RUSTC_BOOTSTRAP=1 cargo fuzz list | grep -v '^minimize$')
fi
jobs="${JOBS:-1}"
parallel=()
if [ "$jobs" -gt 1 ]; then
  # libFuzzer's workers log to fuzz-N.log in the current folder.
  parallel=(-jobs="$jobs" -workers="$jobs")
fi
found=0
summary=()
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t" "artifacts/$t"
  log="$(mktemp)"
  start=$(date +%s)
  RUSTC_BOOTSTRAP=1 cargo fuzz run "$t" "corpus/$t" ../corpus regressions \
    -- -dict=sgf.dict -max_total_time="$seconds" -max_len=65536 \
       "${parallel[@]}" -artifact_prefix="artifacts/$t/" >"$log" 2>&1
  status=$?
  took=$(( $(date +%s) - start ))
  runs=$(cat "$log" fuzz-*.log 2>/dev/null | grep -o 'Done [0-9]* runs' | awk '{s += $2} END {print s + 0}')
  rm -f fuzz-*.log
  crashes=$(find "artifacts/$t" -type f | wc -l)
  line="$t: ${runs} runs in ${took} s, exit ${status}, ${crashes} file(s) in artifacts/$t"
  echo "$line"
  summary+=("$line")
  if [ "$status" -ne 0 ] || [ "$crashes" -gt 0 ]; then
    found=1
    tail -n 30 "$log"
  fi
  rm -f "$log"
done
printf '\n%s\n' "${summary[@]}"
exit "$found"
