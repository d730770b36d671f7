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

for target in parse_check explain normalize differential; do
    echo "$target: $(ls "corpus/$target" | wc -l) seeds"
done
