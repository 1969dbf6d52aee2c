#!/usr/bin/env bash
# Retrains every shipped weight file from the data in scripts/tune/data/ and checks each
# against the file in src/, byte for byte: the fitted cell tables (src/cells/freestyle.rs,
# src/cells/renju.rs) and the six networks (src/cells/net/*.bin: freestyle, freestyle-20,
# standard, renju, caro, caro-exact). The fits are
# deterministic, so a difference means the trainers, the classifier or the classical
# evaluation they start from changed since the shipped files were made.
#
#   scripts/tune/retrain.sh [OUT]     # OUT: where the retrained files go (default retrain-out)
#   scripts/tune/retrain.sh --install # the same, then copies them over the shipped files
#
# About 5 minutes on the 2-core machine (the fits run one core each, two at a time).
# See scripts/tune/README.md, "Retraining every shipped weight file", for each step.
set -euo pipefail

install=0
out=retrain-out
for a in "$@"; do
    case "$a" in
        --install) install=1 ;;
        -h | --help) sed -n '2,12p' "$0"; exit 0 ;;
        *) out=$a ;;
    esac
done

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
data=scripts/tune/data
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --release --examples --quiet
bin=target/release/examples
for f in "$data"/*.gz; do
    gunzip -c "$f" > "$work/$(basename "${f%.gz}")"
done
d=$work

step() { # NAME COMMAND...: runs a step, timing it, its output to OUT/NAME.log
    local name=$1 t0=$SECONDS
    shift
    if ! "$@" > "$out/$name.log" 2>&1; then
        echo "$name: failed, see $out/$name.log" >&2
        return 1
    fi
    echo "$name: $((SECONDS - t0)) s"
}
# steps started with `&` run together; join waits for them and fails if one did
join() {
    local ok=0
    for p in $(jobs -p); do
        wait "$p" || ok=1
    done
    return $ok
}

# 1. The classical cell tables (the networks below start from the classical evaluation,
#    so these come first). Freestyle's from its match records; renju's threat-bucket table
#    from the standard/renju self-play file.
step cells-freestyle "$bin/fit_cells" --rule freestyle --iters 3000 --l2 0.0001 \
    --out "$out/freestyle.rs" "$d/freestyle-15-games.jsonl" &
step cells-renju "$bin/fit_cells" --rule renju --write buckets --iters 3000 --l2 0.0001 \
    --out "$out/renju.rs" "$d/standard-renju-15.rnsp" &
join
rustfmt --edition 2021 "$out/freestyle.rs" "$out/renju.rs"
for f in freestyle renju; do
    if ! cmp -s "$out/$f.rs" "src/cells/$f.rs"; then
        # the networks start from the tables in src/: retrained tables that differ would
        # make every network below differ too, so stop here
        echo "src/cells/$f.rs: the retrained tables differ ($out/$f.rs)" >&2
        [ $install = 1 ] || exit 1
        cp "$out/$f.rs" "src/cells/$f.rs"
        cargo build --release --examples --quiet
    fi
done

# 2. Freestyle's network from the classical start on its game records, and standard's
#    (with the freestyle games on standard boards beside its own).
step net-freestyle-0 "$bin/train_net" --rule freestyle --epochs 10 --l2 1e-3 \
    --out "$out/freestyle-0.bin" "$d/freestyle-15-games.jsonl" "$d/freestyle-15-games-2.jsonl" &
step net-standard-0 "$bin/train_net" --rule standard --also-rule freestyle --epochs 10 --l2 1e-3 \
    --out "$out/caro-exact.bin" "$d/standard-15-games.jsonl" "$d/standard-renju-15.rnsp" \
    "$d/freestyle-15-games.jsonl" "$d/freestyle-15-games-2.jsonl" &
join
# Standard's own: the same with its positions searched at 40,000 nodes beside them (its games
# and those against Rapfi labelled, and fresh self-play). The results-only network above is
# exact-five caro's and renju's start.
step net-standard "$bin/train_net" --rule standard --also-rule freestyle --epochs 10 --l2 1e-3 \
    --out "$out/standard.bin" "$d/standard-15-games.jsonl" "$d/standard-renju-15.rnsp" \
    "$d/freestyle-15-games.jsonl" "$d/freestyle-15-games-2.jsonl" \
    "$d/standard-15-labels-40k.rnsp" "$d/standard-15-selfplay-40k.rnsp" &

# Freestyle's own: its games with every freestyle position searched at 40,000 nodes beside
# them (its games and self-play relabelled, and three self-play files of 40,000-node games).
# The results-only network above is caro's start.
step net-freestyle "$bin/train_net" --rule freestyle --epochs 10 --l2 1e-3 \
    --out "$out/freestyle.bin" "$d/freestyle-15-games.jsonl" "$d/freestyle-15-games-2.jsonl" \
    "$d/freestyle-15-labels-40k.rnsp" "$d/freestyle-15-selfplay-labels-40k.rnsp" \
    "$d/freestyle-15-selfplay-40k-2601.rnsp" "$d/freestyle-15-selfplay-40k-2602.rnsp" \
    "$d/freestyle-15-selfplay-40k-2701.rnsp" &
join

# 3. Fine-tunes: caro from freestyle's results-only network on caro's decisive self-play
#    games; renju from standard's results-only network on renju's games and self-play, its
#    one table split into black's and white's; freestyle's large-board network from
#    freestyle's own on 20x20 self-play.
tune=(--epochs 2 --l2 1e-2 --lr 0.001 --lr-values 0.5)
step net-freestyle-20 "$bin/train_net" --rule freestyle --init "$out/freestyle.bin" "${tune[@]}" \
    --out "$out/freestyle-20.bin" "$d/freestyle-20-selfplay.rnsp" &
step net-caro "$bin/train_net" --rule caro --init "$out/freestyle-0.bin" --decisive "${tune[@]}" \
    --out "$out/caro.bin" "$d/caro-15-selfplay.rnsp" &
step net-renju "$bin/train_net" --rule renju --init "$out/caro-exact.bin" --split-colours \
    "${tune[@]}" --out "$out/renju.bin" "$d/renju-15-games.jsonl" "$d/standard-renju-15.rnsp" \
    "$d/renju-15-selfplay.rnsp" &
join

status=0
for f in freestyle freestyle-20 standard renju caro caro-exact; do
    if cmp -s "$out/$f.bin" "src/cells/net/$f.bin"; then
        echo "src/cells/net/$f.bin: the same"
    else
        echo "src/cells/net/$f.bin: differs ($out/$f.bin)"
        status=1
        [ $install = 0 ] || cp "$out/$f.bin" "src/cells/net/$f.bin"
    fi
done
for f in freestyle renju; do
    cmp -s "$out/$f.rs" "src/cells/$f.rs" && echo "src/cells/$f.rs: the same"
done
exit $status
