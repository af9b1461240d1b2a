#!/bin/sh
# Replays the sample Ambition game (3 players, seed 53) through the CLI:
#   sh orders/ambition/play.sh [GAME_FOLDER]   (default: games/ambition-sample)
# Each NNNN-<phase>.yaml is the turn file for one phase, in order; a letter
# after the number (0054a-...) marks a phase added between two others.
set -e
here=$(cd "$(dirname "$0")" && pwd)
game=${1:-games/ambition-sample}
adjudicator new "$game" --variant ambition --players alice,bob,carol --seed 53
# sorted byte by byte: a locale's collation may ignore the dash and put
# 0054a-... before 0054-...
for turn in $(cd "$here" && ls [0-9][0-9][0-9][0-9]*-*.yaml | LC_ALL=C sort); do
    adjudicator adjudicate "$game" "$here/$turn" > /dev/null
done
adjudicator status "$game" | head -1
