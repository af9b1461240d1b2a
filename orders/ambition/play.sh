#!/bin/sh
# Replays the sample Ambition game (3 players, seed 53) through the CLI:
#   sh orders/ambition/play.sh [GAME_FOLDER]   (default: games/ambition-sample)
# Each NNNN-<phase>.yaml is the turn file for one phase, in order.
set -e
here=$(cd "$(dirname "$0")" && pwd)
game=${1:-games/ambition-sample}
adjudicator new "$game" --variant ambition --players alice,bob,carol --seed 53
for turn in "$here"/[0-9][0-9][0-9][0-9]-*.yaml; do
    adjudicator adjudicate "$game" "$turn" > /dev/null
done
adjudicator status "$game" | head -1
