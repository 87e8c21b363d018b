#!/usr/bin/env bash
# Builds the fuzz targets of tests/fuzz/ (each fuzz_<name>.c drives one pure-C parser core of csrc/).
#
#   tests/fuzz/build.sh [OUT]    (OUT defaults to build/fuzz)
#
# For each harness it builds two programs:
#   OUT/fuzz_<name>    libFuzzer with AddressSanitizer and UBSan (clang; any UB aborts);
#   OUT/replay_<name>  the same harness with tests/fuzz/replay.c as its main, no sanitizer, for
#                      valgrind (tests/fuzz/valgrind.sh) and for replaying a crash by hand.
# A harness includes its core's .c file (the core's static functions and all); libpython is linked
# only for the Python wrapper beside the core in that file, which the harness never calls.
# Environment: CC (clang), REPLAY_CC (cc), PYTHON (python3, for Python.h's folder).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-$root/build/fuzz}"
cc="${CC:-clang}"
replay_cc="${REPLAY_CC:-cc}"
read -r include libdir library < <("${PYTHON:-python3}" -c 'import sysconfig as s
v = s.get_config_var
print(s.get_paths()["include"], v("LIBDIR"), "python" + v("VERSION") + (v("ABIFLAGS") or ""))')
mkdir -p "$out"
common=(-g -I"$root/csrc" -I"$include" -Wall -Wextra -Wno-unused-function)
link=(-L"$libdir" -Wl,-rpath,"$libdir" -l"$library")
built=0
for harness in "$here"/fuzz_*.c; do
    [ -e "$harness" ] || continue
    name="$(basename "$harness" .c)"
    name="${name#fuzz_}"
    "$cc" "${common[@]}" -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined \
        -fno-sanitize-recover=all "$harness" -o "$out/fuzz_$name" "${link[@]}"
    "$replay_cc" "${common[@]}" -O1 "$here/replay.c" "$harness" -o "$out/replay_$name" "${link[@]}"
    echo "$out/fuzz_$name"
    built=$((built + 1))
done
[ "$built" -gt 0 ] || { echo "no tests/fuzz/fuzz_*.c harness" >&2; exit 1; }
