#!/usr/bin/env bash
# test_cluster.sh PILFER DOC: runs the cluster recipe of DOC, docs/cli.md (the indented lines after its
# "the cluster recipe" marker) as written, with GNU parallel's local job slots, and checks that
# each merge of shards equals the same run unsharded, bit for bit but wall_seconds.
set -uo pipefail
PILFER=$(realpath "$1") README=$(realpath "$2")
command -v parallel >/dev/null || { echo "FAIL GNU parallel is not installed (scripts/deps installs it)"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
awk '/<!-- the cluster recipe/ { on = 1; next } on && /^    / { print substr($0, 5); seen = 1; next } on && seen { exit }' \
  "$README" >"$T/recipe"
[ "$(grep -c . "$T/recipe")" -ge 4 ] || { echo "FAIL no cluster recipe found in $README"; exit 1; }
cd "$T" && export PATH="$(dirname "$PILFER"):$PATH"
[ "$(command -v pilfer)" = "$PILFER" ] || { echo "FAIL pilfer on PATH is not $PILFER"; exit 1; }
failed=0
bash -e recipe || { echo "FAIL the recipe failed"; exit 1; }
# Each parallel line's command without its shard, into NAME-whole.json; its merge is NAME.json.
while IFS= read -r line; do
  cmd=$(sed -n "s/^seq .*parallel[^']*'\(.*\)'\$/\1/p" <<<"$line")
  [ -n "$cmd" ] || continue
  name=$(sed -n 's/.*>\([a-z]*\)-{}\.json$/\1/p' <<<"$cmd")
  whole=$(sed -e 's| --shard {}/[0-9]*||' -e "s|>$name-{}\\.json\$|>$name-whole.json|" <<<"$cmd")
  bash -c "$whole" || { echo "FAIL $whole"; failed=1; continue; }
  n=$(ls "$name"-[0-9]*.json | wc -l)
  if [ -s "$name.json" ] && cmp -s <(grep -v '"wall_seconds"' "$name-whole.json") <(grep -v '"wall_seconds"' "$name.json"); then
    echo "ok   $name: $n shards run by GNU parallel and merged equal the unsharded run"
  else
    echo "FAIL $name: the merge differs from the unsharded run"
    diff <(grep -v '"wall_seconds"' "$name-whole.json") <(grep -v '"wall_seconds"' "$name.json") | head -10
    failed=1
  fi
done <recipe
grep -q '"analysis"' analyze.json || { echo "FAIL analyze.json has no analysis"; failed=1; }
exit $failed
