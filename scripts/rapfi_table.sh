#!/bin/bash
# The README's table against Rapfi: per rule (freestyle 15 and 20, standard, renju) the file's
# first 30 openings and 60 drawn by --shuffle --seed 11, each played twice, at 200 ms a move;
# then freestyle 15 at 1 s a move, 30 games. All nine matches run at once, 16 games in all, so
# give it 16 cores: on fewer, the engines share cores and their clocks suffer.
#
#   scripts/rapfi_table.sh ENGINE OUTDIR [REFEREE] [ANCHORS] [SCALE] [SET]
#
# ENGINE: the pbrain-rensa to measure; OUTDIR: where each match writes NAME.log (summary) and
# NAME.jsonl (games); REFEREE defaults to ../shared/tools/referee.py, ANCHORS to
# ../shared/anchors (it needs pbrain-rapfi and its rapfi/ folder); SCALE divides every game
# count (2 for a quick look); SET picks the openings: v2 (the default: freestyle-15-v2.txt, also
# for standard, and renju-15-v2.txt, which the current build judges level) or v1 (freestyle-15.txt
# and renju-15.txt, which favour white: the table's figures up to session 22). About 6 minutes
# on 16 cores.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
engine=$(realpath "$1")
out=$(mkdir -p "$2" && realpath "$2")
referee=$(realpath "${3:-$here/../../shared/tools/referee.py}")
anchors=$(realpath "${4:-$here/../../shared/anchors}")
scale=${5:-1}
case ${6:-v2} in
v1) suffix= ;;
v2) suffix=-v2 ;;
*) echo "SET is v1 or v2" >&2; exit 2 ;;
esac

job() { # name size rule turn-ms games concurrency extra...
    local name=$1 size=$2 rule=$3 turn=$4 games=$5 conc=$6
    shift 6
    local open=$here/openings/freestyle-15$suffix.txt
    [ "$rule" = 4 ] && open=$here/openings/renju-15$suffix.txt
    python3 "$referee" match --engine1 "$engine" --engine2 "$anchors/pbrain-rapfi" \
        --cwd2 "$anchors" --games $((games / scale)) --size "$size" --rule "$rule" \
        --turn-ms "$turn" --match-ms 0 --openings "$open" --opening-format rel "$@" \
        --concurrency "$conc" -q --pgn-out "$out/$name.jsonl" >"$out/$name.log" 2>&1 &
}
for spec in "fs15 15 0" "fs20 20 0" "std 15 1" "renju 15 4"; do
    set -- $spec
    job "$1-s7" "$2" "$3" 200 60 1 --seed 7
    job "$1-s11" "$2" "$3" 200 120 2 --shuffle --seed 11
done
job fs15-1s 15 0 1000 30 4 --seed 7
wait
grep -H "W/D/L:" "$out"/*.log
