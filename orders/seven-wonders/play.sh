#!/bin/sh
# Play the sample 3-player game from start to finish with the CLI.
# Usage: sh orders/seven-wonders/play.sh [GAME_FOLDER]   (default: games/seven-wonders-sample)
set -e
here=$(cd "$(dirname "$0")" && pwd)
game=${1:-games/seven-wonders-sample}
adjudicator new "$game" --variant seven-wonders --players alice,bob,carol --seed 7
for turn in "$here"/[0-9][0-9]-*.yaml; do
    adjudicator adjudicate "$game" "$turn" > /dev/null
done
adjudicator status "$game" | head -1
echo "final report: $(ls "$game"/reports/*.txt | tail -1)"
