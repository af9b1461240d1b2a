#!/bin/sh
# Replays the sample 2-player Age of Artisans game (seed 1) through the CLI.
# Usage: sh orders/age-of-artisans/play.sh [GAME_FOLDER]   (default: games/age-of-artisans-sample)
set -e
here=$(cd "$(dirname "$0")" && pwd)
game=${1:-games/age-of-artisans-sample}
python -m adjudicator new "$game" --variant age-of-artisans --players alice,bob --seed 1
for turn in "$here"/[0-9][0-9][0-9][0-9]-*.yaml; do
    python -m adjudicator adjudicate "$game" "$turn" > /dev/null
done
python -m adjudicator status "$game" | head -1
ls "$game"/reports | tail -1
