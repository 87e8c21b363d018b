#!/usr/bin/env bash
# Runs one fuzz target (tests/fuzz/fuzz_NAME.c, built by build.sh) for a while.
#
#   tests/fuzz/run.sh NAME SECONDS [libFuzzer options...]
#
# Its corpus: tests/fuzz/corpus/NAME (kept in the repository) and the seeds its harness names (a
# line "// seeds: GLOB..." at its top, paths from the repository root; HEX:GLOB puts the header
# bytes HEX, which pick the harness's options, before each file). What the run finds
# goes to a scratch folder; MERGE=1 then minimises corpus and finds together (-merge=1) back into
# tests/fuzz/corpus/NAME. A crash (or a leak, or any UB) exits non-zero with its input saved under
# OUT/crashes/ (OUT: FUZZ_OUT, or build/fuzz). libFuzzer's last lines say how many runs it made.
set -euo pipefail
shopt -s nullglob
name="$1"
seconds="$2"
shift 2
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${FUZZ_OUT:-$root/build/fuzz}"
bin="$out/fuzz_$name"
[ -x "$bin" ] || "$here/build.sh" "$out" >/dev/null
work="$(mktemp -d "${TMPDIR:-/tmp}/nerve-fuzz-$name.XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/new" "$work/seeds" "$out/crashes" "$here/corpus/$name"
i=0
set -f  # the globs are expanded below, from the repository root
globs=($(sed -n 's,^// seeds: ,,p' "$here/fuzz_$name.c"))
set +f
for glob in "${globs[@]}"; do
    prefix=""
    case "$glob" in *:*) prefix="${glob%%:*}" glob="${glob#*:}" ;; esac
    for seed in "$root"/$glob; do
        i=$((i + 1))
        { printf "$(sed 's/../\\x&/g' <<<"$prefix")"; cat "$seed"; } >"$work/seeds/$i-$(basename "$seed")"
    done
done
options=(-timeout=10 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1)
if [ -f "$here/$name.dict" ]; then options+=(-dict="$here/$name.dict"); fi
status=0
"$bin" "${options[@]}" -max_total_time="$seconds" -artifact_prefix="$out/crashes/$name-" "$@" \
    "$work/new" "$here/corpus/$name" "$work/seeds" || status=$?
if [ "${MERGE:-0}" = 1 ]; then
    mkdir "$work/merged"
    "$bin" "${options[@]}" -merge=1 "$work/merged" "$here/corpus/$name" "$work/new" "$work/seeds" 2>&1 | tail -n 2
    # crashing inputs stay in the corpus (named crash-*) until the bug is fixed
    find "$here/corpus/$name" -type f ! -name 'crash-*' -delete
    cp "$work/merged"/* "$here/corpus/$name/"
    echo "corpus/$name: $(ls "$here/corpus/$name" | wc -l) inputs, $(du -sk "$here/corpus/$name" | cut -f1) KiB"
fi
exit "$status"
