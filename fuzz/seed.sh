#!/usr/bin/env bash
# Builds the seed corpora of the fuzz targets from the real robots.txt files
# in tests/data/corpus (and the regression inputs in tests/data/regressions).
# The generated fuzz/corpus/ is not committed. Usage: fuzz/seed.sh
set -euo pipefail
cd "$(dirname "$0")"
src=../tests/data/corpus
reg=../tests/data/regressions
sep=$'\x1f'

mkdir -p corpus/parse_check corpus/explain corpus/normalize corpus/differential

for target in parse_check explain; do
    cp "$src"/*.txt "corpus/$target/"
    [ -d "$reg" ] && cp "$reg"/* "corpus/$target/" 2>/dev/null || true
    # A few files with a crawler name and URLs appended after the separator.
    for f in "$src"/3[0-4]?_*.txt; do
        name=$(basename "$f" .txt)
        { cat "$f"; printf '%sGooglebot/2.1%s/search?q=1%shttps://example.com/%%E3%%83%%84/a*b$' "$sep" "$sep" "$sep"; } \
            > "corpus/$target/${name}.q"
    done
done

# normalize: the rule values of the corpus, one per seed file.
n=0
cat "$src"/*.txt | tr '\r' '\n' | grep -aiE '^[[:space:]]*(dis)?allow[[:space:]]*:' \
    | sed -E 's/^[^:]*:[[:space:]]*//' | LC_ALL=C sort -u | sed -n '1,3000p' \
    | while IFS= read -r value; do
        n=$((n + 1))
        printf '%s' "$value" > "corpus/normalize/v$n"
    done

# differential: structured bytes, so a handful of corpus files and their
# rules' values are as good a start as any.
cp "$src"/30?_*.txt corpus/differential/
cp corpus/normalize/v1?? corpus/differential/ 2>/dev/null || true

# fast_path: each corpus file as a body (flags 0), and, in the
# repeated-groups mode (flags 2), the first rule lines of some files as a
# block, taken again by groups with each kind of change.
mkdir -p corpus/fast_path
for f in "$src"/*.txt; do
    { printf '\x00'; cat "$f"; } > "corpus/fast_path/$(basename "$f")"
done
for f in "$src"/0[0-4]?_*.txt; do
    block=$(grep -aiE '^(dis)?allow' "$f" | head -12 || true)
    { printf '\x02%s\n' "$block"
      printf '\x1f\x00\x1f\x01\x1f\x02\x1f\x43Disallow: /x\n\x1f\x84\r\x1f\x03\x1f\xc0'
    } > "corpus/fast_path/$(basename "$f" .txt).rep"
done

for target in parse_check explain normalize differential fast_path; do
    echo "$target: $(ls "corpus/$target" | wc -l) seeds"
done
