#!/usr/bin/env bash
# Checks that two pith binaries give byte-identical output on every HTML page under
# ../shared/data (all sets, msv_big9 included), in every mode a speed change must not alter:
# the default (model) and the rules (balanced, --precision, --recall, --comments), danag,
# danag-lines, and JSON (both) and Markdown output. The rules are named `--algo auto`, which
# binaries from before and after `--algo rules` both accept.
# Usage: tools/same_output.sh OLD_PITH NEW_PITH [DATA_DIR]
# Prints one line per mode and exits non-zero when any output differs (the first differing
# page is named: each page is run on its own then).
set -u
old=$1 new=$2 data=${3:-../shared/data}
if [ ! -d "$data" ]; then
    echo "skipping: $data not found (needs ../shared)"
    exit 0
fi
mapfile -t pages < <(find "$data" -path '*/html/*' -name '*.htm*' | sort)
echo "${#pages[@]} pages"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
modes=("--algo model" "--algo model --precision" "--algo model --recall" "--algo model --comments"
    "--algo auto" "--algo auto --precision" "--algo auto --recall" "--algo auto --comments"
    "--algo danag" "--algo danag-lines" "--algo model --format json" "--algo auto --format json"
    "--algo model --format markdown")
for mode in "${modes[@]}"; do
    # shellcheck disable=SC2086
    "$old" -j 1 $mode "${pages[@]}" > "$tmp/old" 2> "$tmp/old.err"
    # shellcheck disable=SC2086
    "$new" -j 1 $mode "${pages[@]}" > "$tmp/new" 2> "$tmp/new.err"
    if cmp -s "$tmp/old" "$tmp/new" && cmp -s "$tmp/old.err" "$tmp/new.err"; then
        echo "same      $mode ($(wc -c < "$tmp/new") bytes)"
        continue
    fi
    status=1
    for p in "${pages[@]}"; do
        # shellcheck disable=SC2086
        if ! cmp -s <("$old" $mode "$p" 2>&1) <("$new" $mode "$p" 2>&1); then
            echo "DIFFERENT $mode: first at $p"
            break
        fi
    done
done
exit $status
