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

# response: some corpus files as bodies, in each coding mode (as sent, or
# encoded by the target: gzip, zlib, brotli, raw deflate), a cap of 100,
# 4,000 or 65,535 octets, various chunk sizes, with a few header lines.
mkdir -p corpus/response
i=0
headers=('\x00max-age=3600' '\x01Wed, 21 Oct 2015 07:28:00 GMT' '\x03120' '\x04120'
    '\x05/other/robots.txt' '\x06text/plain; charset=iso-8859-1' '\x07"abc"' '\x09gzip, chunked')
for f in "$src"/0[0-3]?_*.txt; do
    caps=('\x63\x00' '\xa0\x0f' '\xfe\xff')
    sizes=('\x00' '\x01' '\x07' '\xc8')
    for flags in '\x00' '\x14' '\x18' '\x1c' '\x38' '\x44' '\x80'; do
        { printf "$flags${caps[i % 3]}${sizes[i % 4]}"'\x00\xf1\x53\x65\x00\x00\x00\x00'
          head -c 20000 "$f" | tr -d '\037'
          printf "\x1f${headers[i % 8]}\x1f${headers[(i + 3) % 8]}"
        } > "corpus/response/$(basename "$f" .txt)_$(printf '%s' "$flags" | tr -d '\\')"
    done
    i=$((i + 1))
done

for target in parse_check explain normalize differential fast_path response; do
    echo "$target: $(ls "corpus/$target" | wc -l) seeds"
done
