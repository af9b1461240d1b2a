#!/bin/sh
# Replay the sample game: a 2-player game, seed 3, one turn file per phase.
# Usage: sh orders/age-of-ambition/play.sh [GAME_FOLDER]   (default: games/age-of-ambition-sample)
set -e
here=$(dirname "$0")
folder=${1:-games/age-of-ambition-sample}
adjudicator new "$folder" --variant age-of-ambition --players alice,bob --seed 3
for turn in "$here"/[0-9][0-9][0-9]-*.yaml; do
    adjudicator adjudicate "$folder" "$turn" > /dev/null
done
adjudicator status "$folder" | head -1
cat "$folder"/reports/$(ls "$folder"/reports | tail -1)
