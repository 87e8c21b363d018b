#!/usr/bin/env bash
# valgrind's memcheck over nerve's compiled engine, two ways:
#
#   tests/fuzz/valgrind.sh replay [OUT]
#       each core's replay program (build.sh: the fuzz harness without a sanitizer) over its corpus
#       and seeds; any memcheck error or definitely lost block fails.
#   tests/fuzz/valgrind.sh python PYTHON [pytest arguments...]
#       the Python tests (pytest, PYTHONMALLOC=malloc) under memcheck, in interpreter PYTHON, which
#       must import nerve (from src/, with the extension built in place) and the test dependencies;
#       Hypothesis runs few examples there, without health checks (tests/fuzz/valgrind_profile.py).
#       CPython, numpy and the dynamic loader have reports of their own (an uninitialised digit in
#       CPython 3.11's int.from_bytes, numpy's interned tuples "lost" at exit, ld.so's rpath reads),
#       none through nerve's code: so the XML log is read, and a report fails only where one of its
#       stacks (where it happened, or where the memory came from) passes through nerve._speedups.
set -euo pipefail
shopt -s nullglob
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
memcheck=(valgrind --tool=memcheck --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite
    --show-leak-kinds=definite --track-origins=yes --num-callers=40)
mode="${1:?replay or python}"
shift
if [ "$mode" = replay ]; then
    out="${1:-$root/build/fuzz}"
    status=0
    for replay in "$out"/replay_*; do
        name="${replay##*/replay_}"
        seeds=()
        set -f  # the globs are expanded below, from the repository root
        globs=($(sed -n 's,^// seeds: ,,p' "$here/fuzz_$name.c"))
        set +f
        for glob in "${globs[@]}"; do
            for seed in "$root"/${glob#*:}; do seeds+=("$seed"); done  # raw, without a HEX: header
        done
        echo "== $name: $(ls "$here/corpus/$name" | wc -l) corpus inputs, ${#seeds[@]} seeds"
        "${memcheck[@]}" -q "$replay" "$here/corpus/$name" "${seeds[@]}" || status=$?
    done
    exit "$status"
fi
python="${1:?the Python interpreter}"
shift
log="$(mktemp "${TMPDIR:-/tmp}/nerve-valgrind.XXXXXX.xml")"
cd "$root"
status=0
PYTHONMALLOC=malloc "${memcheck[@]}" --xml=yes --xml-file="$log" \
    "$python" -m pytest -q -p no:cacheprovider -p fuzz.valgrind_profile "$@" || status=$?
if [ "$status" != 0 ] && [ "$status" != 99 ]; then  # 99: memcheck's reports, read below
    echo "pytest failed under valgrind (exit $status)" >&2
    exit "$status"
fi
"$python" - "$log" <<'PY'
import sys
import xml.etree.ElementTree as ET

errors = ET.parse(sys.argv[1]).getroot().findall("error")
ours = []
for error in errors:
    frames = [(f.findtext("obj") or "") + " " + (f.findtext("dir") or "") for f in error.iter("frame")]
    if any("_speedups" in frame or "/csrc" in frame for frame in frames):
        ours.append(error)
print(f"memcheck: {len(errors)} reports in all, {len(ours)} through nerve's compiled engine ({sys.argv[1]})")
for error in ours:
    print(error.findtext("kind"), error.findtext("what") or error.findtext("xwhat/text"))
    for frame in error.iter("frame"):
        print("   ", frame.findtext("fn"), frame.findtext("file"), frame.findtext("line"))
sys.exit(1 if ours else 0)
PY
