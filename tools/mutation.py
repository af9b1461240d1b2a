"""Mutation testing of the engine, the A&E rules, mail reading and storage,
with cosmic-ray: each module is mutated one small change at a time (a
flipped comparison, `and` for `or`, `in` for `not in`, a constant changed,
a loop run zero times...) and the tests that cover it are run against each
mutant. A mutant no test notices is a behaviour no test pins down.

    .venv/bin/pip install -e '.[mutation]'
    .venv/bin/python tools/mutation.py                      # every module below
    .venv/bin/python tools/mutation.py diplomacy/order_types/convoy.py rules/ambition_empire_dp.py

cosmic-ray writes each mutant into the file on disk while its tests run, so
run this in a clean clone or worktree that nothing else uses (never in the
middle of an edit). It is slow (each mutant runs pytest once, on one core):
it is not part of .ci/run. Sessions and the report go to .mutation/
(ignored by git); the report lists each surviving mutant by file, line and
operator. Equivalent mutants (ones that change nothing observable) are
listed in EQUIVALENT below with the reason; they are left out of the rate."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / ".mutation"
# Without hypothesis's pytest plugin, whose import is most of a short run's
# start-up (about 5 s of 7 on a loaded machine): tests that use hypothesis
# import it themselves and run the same.
PYTEST = "-m pytest -x -q -n 0 -p no:cacheprovider -p no:randomly -p no:hypothesispytest"

DATC = ["tests/test_datc.py"]
AE = ["tests/test_ambition_empire_rules.py"]
# The order types' parsing is pinned by the parser's table, their "why" by the report's wording.
PARSER = ["tests/test_parser.py"]
WHY = ["tests/test_why.py"]
# The parser's own tests: its table of readings and refusals, and the fast path read against the full reading.
PARSING = ["tests/test_parser.py", "tests/test_speed_parser.py"]
# Each module, by its path under adjudicator/, with the tests that cover it.
MODULES: dict[str, list[str]] = {
    "diplomacy/order_types/convoy.py": [*DATC, *PARSER, *WHY, "tests/test_convoy_routes.py"],
    "diplomacy/order_types/support.py": [*DATC, *PARSER, *WHY],
    "diplomacy/order_types/move.py": [*DATC, *PARSER, *WHY, "tests/test_movement_result.py",
                                      "tests/test_order_types.py"],
    "diplomacy/order_types/retreat.py": [*DATC, *PARSER],
    "diplomacy/order_types/build.py": [*DATC, *PARSER],
    "diplomacy/order_types/disband.py": [*DATC, *PARSER],
    "diplomacy/order_types/waive.py": [*DATC, *PARSER],
    "diplomacy/order_types/binding.py": DATC,
    "diplomacy/order_types/hold.py": [*DATC, *PARSER, *WHY],
    "diplomacy/order_types/board.py": DATC,
    "diplomacy/order_types/reading.py": [*PARSING, *DATC],
    "diplomacy/parser.py": [*PARSING, *AE],
    "diplomacy/plain_orders.py": PARSING,
    "diplomacy/order_reader.py": [*PARSING, *DATC],
    "diplomacy/lines.py": [*PARSING, *AE],
    "diplomacy/orders.py": [*PARSING, *DATC, "tests/test_order_types.py", "tests/test_compiled_orders.py"],
    "diplomacy/order_types/__init__.py": PARSING,
    "diplomacy/order_types/verdict.py": [*DATC, *WHY],
    "diplomacy/adjustments.py": DATC,
    "diplomacy/retreats.py": DATC,
    "diplomacy/movement.py": [*DATC, *WHY, "tests/test_movement_result.py"],
    "diplomacy/validation.py": [*DATC, *PARSER],
    "diplomacy/resolver.py": ["tests/test_resolver_cycles.py", "tests/test_resolver_decisions.py",
                              "tests/test_resolver_fast_path.py", *DATC],
    "diplomacy/mapgraph.py": ["tests/test_mapgraph.py", *DATC, *PARSER, "tests/test_compiled_map.py"],
    "diplomacy/turn.py": [*DATC, *WHY, "tests/test_movement_result.py", *AE],
    "diplomacy/variant.py": [*DATC, "tests/test_hostile_inputs.py", "tests/test_checking.py",
                             "tests/test_variant_file.py"],
    "diplomacy/statefile.py": ["tests/test_statefile.py", *DATC, "tests/test_hostile_inputs.py",
                               "tests/test_roundtrip.py"],
    "diplomacy/state.py": ["tests/test_model.py", *DATC],
    "diplomacy/model.py": ["tests/test_model.py", *DATC, *PARSER],
    "diplomacy/game.py": DATC,
    "diplomacy/centre_years.py": ["tests/test_report_centre_years.py"],
    "diplomacy/progress.py": [*DATC, "tests/test_game_end.py", "tests/test_standard_rules.py"],
    "diplomacy/hooks.py": DATC,
    "diplomacy/outcome.py": [*DATC, *WHY],
    "diplomacy/movement_result.py": [*DATC, "tests/test_movement_result.py"],
    "rules/ambition_empire_dp.py": AE,
    "rules/ambition_empire_sortie.py": AE,
    "rules/ambition_empire_common.py": AE,
    "rules/ambition_empire_homes.py": AE,
    "rules/ambition_empire_map.py": AE,
    "rules/standard.py": [*DATC, *AE, "tests/test_standard_rules.py"],
    "mail/mailread.py": ["tests/test_mailread.py", "tests/test_mail_lines.py::test_password_like_lines"],
    "store/phasecommit.py": ["tests/test_phasecommit.py", "tests/test_phasecommit_modes.py"],
    "store/seal.py": ["tests/test_seal.py", "tests/test_phasecommit.py"],
    "store/names.py": ["tests/test_names.py", "tests/test_phasecommit.py"],
    "store/storage.py": ["tests/test_storage.py", "tests/test_hostile_inputs.py", "tests/test_yaml_kept.py",
                         "tests/test_seal.py"],
    "store/folderlock.py": ["tests/test_folderlock.py", "tests/test_startup_lock.py",
                            "tests/test_folder_safety.py::test_a_second_run_waits_then_says_another_run_holds_the_game"],
    "store/gamemeta.py": ["tests/test_gamemeta.py", "tests/test_hostile_inputs.py"],
    "store/rollback.py": ["tests/test_rollback_plan.py", "tests/test_rollback_preview.py"],
    "store/usercache.py": ["tests/test_usercache.py", "tests/test_yaml_kept.py"],
    "store/packagedata.py": ["tests/test_packagedata.py", "tests/test_packaging.py"],
    "store/owed.py": ["tests/test_mail_service.py"],
    "rules/__init__.py": ["tests/test_variant_loading.py"],
    "rules/ambition_empire.py": AE,
}

# The operators used: the kinds of change the audit made, one mutant each
# (cosmic-ray's full set replaces every operator by every other, which
# multiplies the mutants tenfold and adds mostly ones that cannot compile
# to anything meaningful: 'a in b' to 'a < b').
KEPT_COMPARISONS = "Eq_NotEq|NotEq_Eq|Lt_LtE|LtE_Lt|Gt_GtE|GtE_Gt|In_NotIn|NotIn_In|Is_IsNot|IsNot_Is"
EXCLUDED_OPERATORS = [
    f"core/ReplaceComparisonOperator_(?!({KEPT_COMPARISONS})$).*",
    "core/ReplaceBinaryOperator_(?!(Add_Sub|Sub_Add)$).*",
    "core/VariableReplacer", "core/VariableInserter", "core/RemoveDecorator",
]

# Mutants that change nothing observable, by module: the mutant, and why.
# (Line numbers move; each is named by what it changes.)
EQUIVALENT: dict[str, dict[str, str]] = {
    "*": {
        "AddNot on 'if TYPE_CHECKING'": "the imports under it then run at import time too; nothing else changes",
    },
    "diplomacy/order_types/convoy.py": {
        "fleet_route_exists: 'FLEET and is_sea' -> 'or'": "only fleets stand at sea and the route walks seas "
                                                         "alone, so the same seas are picked",
        "has_path: 'return True' -> 'return False' for a direct move": "callers never ask a direct move "
                                                                       "for its path (the hot path)",
        "validate_convoy: exact 'order.origin == origin' -> '!='": "an army's origin never names a coast, so "
                                                                   "the normalised order equals the written one",
    },
    "diplomacy/resolver.py": {
        "guess_reads starts at -1 or 1, not 0; or counts 2 a read": "only compared for equality with its own "
                                                                     "earlier value, and it only grows",
        "_conclude: 'cycle.insert(0, key)' -> insert(1) or insert(-1)": "never runs: a second run repeats the "
                                                                         "first up to its read of its own guess, "
                                                                         "so the key is always in its cycle",
        "_conclude: the loop unresolving the cycle's keys run zero times": "_forget(mark) just before has "
                                                                           "unresolved every one of them",
    },
    "diplomacy/mapgraph.py": {
        "NORMALISE_CACHE +-1; a name cache's '>=' -> '>' or 'not >='": "only how soon a cache starts over",
        "suggest: get_close_matches n=1 -> 2, or 'match[0]' -> 'match[-1]'": "match[0] is the closest; with n=1 "
                                                                             "it is the only one",
        "NameIndex: word prefixes 'range(1, len(parts) + 1)' -> '+ 2'": "parts[:len + 1] is the whole key again",
        "NameIndex: compact prefixes 'range(1, len(k) + 1)' -> '(1, len(k) + 2)' or '(0, len(k) + 1)'":
            "k[:len + 1] is k; '' is answered by may_grow's 'not key' first",
        "sea_component: the numbering starts at 1 or -1, or steps by 2 or -1": "the numbers are only compared for "
                                                                              "equality",
        "load_map: read_yaml(keep=True) -> False": "the file is parsed again, to an equal map: only slower",
        "full_name: 'name is not None' negated (two forms), full_names' loop of coasts run zero times, or the "
        "fallback's '\"/\" in location' negated": "full_names holds every province and coast in the fallback's own "
                                                  "words, so the fallback (reached only for a location the map does "
                                                  "not have) gives the same names",
    },
    "diplomacy/turn.py": {
        "why_of: a dislodged unit's 'disbanded' False -> True": "note_retreats sets it on every dislodged unit's "
                                                               "line afterwards",
        "note_retreats: 'reason is not None and kind is DISLODGED' -> 'or'": "every dislodged unit's line has a "
                                                                           "DISLODGED why (its contest is always "
                                                                           "recorded)",
    },
    "diplomacy/model.py": {
        "SEASONS_ORDER, KINDS_ORDER renumbered in the same order (spring -1, winter 4, movement -1, adjustment "
        "3); sort_key's 9 for an unknown season or kind -> 8 or 10": "the same order",
        "Unit, Phase: 'slots=True' -> False": "no code adds an attribute: the same values",
        "Unit.province: 'repr=False' or 'compare=False' -> True": "derived from the location, which is compared; "
                                                                   "no output prints a unit's repr",
        "province_of: 'split(\"/\", 1)[0]' -> 'split(\"/\", 2)[0]'": "the part before the first '/' either way",
    },
    "diplomacy/hooks.py": {
        "RuleSet: 'frozen=True' -> False": "no code assigns a rule set's field (a variant's rules are made with "
                                           "dataclasses.replace), nor hashes one",
    },
    "diplomacy/outcome.py": {
        "OrderLine.void_rule: 'void and why is not None' -> 'or'": "a why has a rule only on a void line",
        "Opponent, Why, OrderLine, UnusedBuilds: 'slots=True' -> False": "no code adds an attribute",
        "UnusedBuilds: 'frozen=True' -> False": "never changed or hashed",
        "ErrorLine.published's default False -> True": "every ErrorLine is made with its flag (collect_errors)",
    },
    "diplomacy/state.py": {
        "Dislodged: 'frozen=True' -> False": "never changed or hashed",
    },
    "diplomacy/variant.py": {
        "rules_summary: the fallback 'RULE_OPTIONS[k][0]' -> '[1]' or '[-1]'": "never reached: both editions "
                                                                              "give a reading of every other option",
        "power_suggestion: get_close_matches n=1 -> 2, or 'close[0]' -> 'close[-1]'": "close[0] is the closest; "
                                                                                   "with n=1 it is the only one",
        "PowerInfo, MinorPower, Variant: 'frozen=True' -> False": "no code assigns a field of one or hashes one",
        "PowerInfo.extra, MinorPower.traits: 'hash=False' -> True": "no code hashes a power's record",
        "PowerInfo.extra, MinorPower.traits, Variant._power_names, Variant.derived: 'compare=False' -> True":
            "no code compares two powers' records or two variants",
        "Variant._power_names, Variant.derived: 'repr=False' -> True": "no output prints a variant's repr",
        "Variant._power_names: 'init=False' -> True": "with_rule_options then hands the new variant the old one's "
                                                      "name table: the same powers, so the same table",
    },
    "diplomacy/movement_result.py": {
        "Contest: 'slots=True' -> False, 'unsafe_hash=True' -> False": "no code adds an attribute to a Contest or "
                                                                       "hashes one",
    },
    "diplomacy/validation.py": {
        "validate_movement_order: exact 'order.power == unit.power' -> '!='": "binding has refused an order for "
                                                                             "another power's unit, so only "
                                                                             "'exact' changes, and the checks "
                                                                             "then build an equal order",
        "settle_convoy_intent: 'asked = False' -> 'True'": "only skips a shortcut: with no convoy ordered or "
                                                          "asked for, the loop after it changes no order either",
    },
    "diplomacy/order_types/board.py": {
        "is_dislodged: a unit that moved away 'return False' -> 'return True'": "only supports' and convoys' "
                                                                                "units are asked, and they do "
                                                                                "not move",
    },
    "diplomacy/order_types/hold.py": {
        "holds: 'return True' -> 'return False'": "no decision reads a hold's: the phase gives every hold its "
                                                  "success without asking, and only moves', supports' and "
                                                  "convoys' decisions are read",
        "hold_strength 0 -> -1 (no unit; a unit that moved away)": "the move it is measured against has attack "
                                                                   "1 at least there, and bounce lists only "
                                                                   "strengths above 0",
    },
    "diplomacy/order_types/move.py": {
        "leaves_standoff: 'opponent is not None and succeeded' -> 'or'": "a head-to-head opponent that failed "
                                                                         "still stands in the target, or the "
                                                                         "unit that dislodged it does: the "
                                                                         "target is occupied either way",
        "attack_strength: 'prov in by_convoy and not has_path' -> 'not prov in', or its 'return 0' -> 1 or -1":
            "every caller has already seen the convoyed move's path hold",
        "resolve_destination: 'options[0]' -> 'options[-1]'": "taken only when there is one option",
        "validate_move: 'not order.via_convoy' -> 'order.via_convoy' (land route)": "a 'via convoy' kept there "
                                                                                    "is dropped by "
                                                                                    "settle_convoy_intent (the "
                                                                                    "land-route fallback); an "
                                                                                    "order without is rebuilt equal",
        "leaves_standoff: 'succeeded.get(opponent, False)' -> True": "every order has a result: the default is "
                                                                      "never used",
        "prevent_strength 0 -> -1 (no path; beaten head to head)": "a move of attack 0 has already failed on "
                                                                     "its own unit's hold or defend strength, "
                                                                     "and bounce lists only strengths above 0",
    },
    "diplomacy/order_types/retreat.py": {
        "validate_retreat: 'FLEET and \"/\" not in dest' -> 'or'": "an army's retreat without a coast then looks "
                                                                   "among its options for its own province, "
                                                                   "which is the province itself",
        "validate_retreat: 'matches[0]' -> 'matches[-1]'": "taken only when there is one match",
    },
    "diplomacy/adjustments.py": {
        "UNREACHABLE = 99 -> 98 or 100": "only compared with other distances, all far smaller",
        "'-unit_distance' -> '~unit_distance'": "~d is -d - 1: the same order",
        "fleets' sort key 0 -> -1, armies' 1 -> 2": "the same order",
        "'due > 0' -> 'due >= 0' or '> -1'": "with nothing due, civil disorder picks nothing",
        "'adj.delta > 0' -> '>= 0' or '> -1'": "with nothing due, builds_left is 0 and no line is written",
    },
    "diplomacy/lines.py": {
        "ParsedLine: 'slots=True' -> False": "no line is given an attribute it does not declare; with or without "
                                             "__slots__ it behaves the same",
    },
    "diplomacy/order_types/verdict.py": {
        "Void: 'slots=True' -> False": "no Void is given an attribute it does not declare; with or without "
                                       "__slots__ it behaves the same",
    },
    "diplomacy/orders.py": {
        "an order class's 'slots=True' -> False": "no order is given an attribute it does not declare; with or "
                                                  "without __slots__ it behaves the same",
        "Order (the base class): 'unsafe_hash=True' -> False": "no order is an Order itself: each order type "
                                                               "sets its own hash",
        "Waive's province 'init=False' -> True": "every Waive is made with its power alone: the province keeps "
                                                 "its default ''",
        "a derived province's 'compare=False' -> True": "it follows from the location (or destination) compared "
                                                        "already: equal orders have equal provinces, so equality "
                                                        "and set membership are the same",
    },
    "diplomacy/order_types/reading.py": {
        "COAST_STARTS: 'split()[0]' -> [1] or [-1] (the second words, 'c' and 'coast')": "only the fast path "
            "reads it, to give up a line with a coast after a location: the one coast phrase whose first word "
            "it takes after a location ('s c') goes on with 'c', neither a unit nor a place, so the line is "
            "given up either way",
    },
    "diplomacy/plain_orders.py": {
        "place, coast_of: the index returned with no location, 0 -> 1 or -1": "every caller reads the index only "
                                                                              "when a location came with it",
        "the guards that give up a location with a coast after it ('i + 2 < n' -> 'i + 3 < n', "
        "'{nxt} {words[i + 2]}' -> [i + 1] or [i - 2], "
        "'nxt in COAST_STARTS' -> 'not in'; coast_follows' 'i + 1 <' -> 'i + 2 <', 'words[i + 1]' -> [i - 1] or "
        "[i + 0]; place's 'next_words or coast_follows' -> 'and')": "the fast path takes only order words after a "
                                                                   "location, and the one coast phrase that starts "
                                                                   "with one ('s c') goes on with 'c', neither a "
                                                                   "unit nor a place on any map: the line is given "
                                                                   "up either way (and no name of several words on "
                                                                   "any map goes on into a longer one)",
        "brackets: 'inside[1:-1]' -> 'inside[0:-1]'": "normalise drops the '(' as well",
        "brackets: a bracket of at most two words, 'end - i > 1' -> '> 2'": "a coast of three words in brackets "
            "('( sc )') is then read by the fast path as the full reading reads it (test_every_coast_in_brackets_"
            "reads_as_the_full_parser); no phrase of three words is a coast",
        "read: 'n > MAX_WORDS' -> '>='": "no map has names long enough for a plain line of 16 words (three "
                                         "names of three words make 13); any longer line is given up either way",
        "longest: max's 'default=1' -> 0 or 2": "every map has names of several words",
        "read: 'MAX_WORDS' 16 -> 15 or 17": "no plain line on any map reaches 15 words (three names of three "
                                              "words make 13)",
        "read: hyphens() or brackets() called on words without a hyphen or bracket ('and' -> 'or')": "they leave "
            "such words as they are",
        "_split_word: the 'break' after a slash that makes no coast -> 'continue'": "the pieces are then empty, "
            "so every later chunk fails the same way and the word is given up either way",
        "place: several words tried down to one ('range(..., 1, -1)' -> 0)": "no name of several words is one "
                                                                            "word: the look-up misses and the "
                                                                            "one-word reading follows",
        "read: the one-look-up shortcuts for a location or destination skipped ('words[1]' -> [0], "
        "'words[i + 1]' -> [i + 0], 'i + 2 == n' -> 'i - 2 == n' or 'i + 1 == n')": "the look-up misses (a unit or move word is "
                                                                   "no place) and place() reads the same location",
        "__init__: a coast id kept if its province is plain 'and' its code is -> 'or'": "on every map each coast "
                                                                                        "id has both",
        "__init__: a spelling of several words kept 'if words and' it normalises to its key -> 'or'": "on every "
            "map every spelling of several words normalises to its key, and no word list is empty",
        "read: a support's 'i + 1 >= n' -> 'i + 0 >= n' or '>' before its move word": "a move word that ends the line "
                                                                                  "leaves place() nothing to read: "
                                                                                  "the line is given up either way",
    },
    "diplomacy/order_reader.py": {
        "tokenise: 'raw == \"-\" or \"-\" not in raw' -> 'and'": "a word without a hyphen, and '-' itself, "
                                                              "split at their hyphens into themselves",
        "_province: 'range(1, 6)' -> 'range(1, 5)' or 'range(1, 7)'": "no name on any map has more than three "
                                                                       "words",
        "_province: the 'break' when no name starts with the run -> 'continue'": "may_grow is false only when no "
            "name, with or without its spaces, starts with the run: no longer run names a province either",
        "_province: a unique prefix's 'found[0]' -> 'found[-1]'": "taken only when there is one",
    },
    "diplomacy/parser.py": {
        "parse_text: the fast path's 'tag is None' -> 'is not None'": "the full reading tries the fast path "
                                                                      "too, on the same words once no prefix "
                                                                      "is left",
        "parse_text: a heading alone's 'content.count(\":\") == 1' -> '== 0'": "then never taken: the full "
                                                                                 "reading reads a heading the "
                                                                                 "same (test_speed_parser's "
                                                                                 "test_headings_read_as_the_full_"
                                                                                 "reading_reads_them)",
        "parse_text: 'split(\"#\", 1)[0]' -> 'split(\"#\", 2)[0]'": "only the text before the first '#' is used",
        "parse_text: a heading alone looked up as 'content[:0]' ('[:-1]' -> '[:not 1]' or '[:-0]')": "'' names no "
                                                                                                  "power, and the "
                                                                                                  "full reading "
                                                                                                  "then reads the "
                                                                                                  "heading the same",
    },
    "rules/ambition_empire_dp.py": {
        "DiplomacyPoints, Status: 'slots=True' -> False": "a frozen value with or without __slots__ behaves the same",
        "DiplomacyPoints: 'frozen=True' -> False": "the tag is never changed, hashed or compared by identity",
        "religion_breach: \"extra.get('papal_army') or {}\" -> 'and'": "no variant file names a papal_army, so "
                                                                       "the Papal minor is the default 'pap' either way",
        "entitlement: \"extra.get('diplomacy_points') or {}\" -> 'and'": "the defaults then read equal the values "
                                                                          "the variant file gives",
        "entitlement: the defaults of per_supply_centre and max_per_turn changed": "the variant file gives both",
        "entitlement: 'return 0' outside the DP seasons -> 1 or -1": "DPs are only read in movement phases, which "
                                                                     "are Spring and Fall, the DP seasons",
        "written_order: 'split(\"#\", 1)[0]' -> 'split(\"#\", 2)[0]'": "only the text before the first '#' is used",
        "written_order: 'rsplit(\":\", 1)[-1]' -> '[+1]', '[1]', 'rsplit(\":\", 2)[-1]'": "a DP line always holds the "
                                                                                       "colon of its 'N DP:' prefix: "
                                                                                       "the last part is the second",
        "dp_of: 'else 0' -> 'else 1' or '-1'": "only called on DP lines, which always carry their DiplomacyPoints tag",
        "read_allocation: 'line.power is None or not great' -> 'and'": "the parser gives a line no power or a Great "
                                                                       "Power's (a minor's name is refused), and for "
                                                                       "both the two agree",
        "pool_winner, publish_unusable: sort key '-t[0]' -> '~t[0]'": "~n is -n - 1: the same order",
    },
    "rules/ambition_empire_common.py": {
        "minor_home_unit: \"(info.get('units') or [None])[0]\" -> '[-1]'": "every minor power has one unit",
    },
    "rules/standard.py": {
        "victory: 'winners[0]' -> 'winners[-1]'": "it is read only when there is one winner",
    },
    "rules/ambition_empire_homes.py": {
        "victory: 'len(counts) > 1' -> '>= 1', '> 0' or '> 2'": "the variant has ten Great Powers",
        "after_adjustment: 'break' after the additional home -> 'continue'": "only one build a Winter may go to a "
                                                                            "conquered centre (build_sites), so no "
                                                                            "second unit qualifies",
    },
    "rules/ambition_empire_sortie.py": {
        "post_resolve: 'succeeded.get(prov, False)' -> True": "every move the orders hold has its entry",
        "post_resolve: the 'continue' after voiding supports -> 'break'": "the core re-resolves until nothing more is "
                                                                         "voided, so a minor move left for the next "
                                                                         "pass is voided there, for the same reason",
        "after_movement: 'attacker is None or not great' -> 'and', and its 'continue' -> 'break'": "a minor's move "
            "never succeeds (the sortie), so every dislodging unit is a Great Power's and is there",
        "rebuild_minors: 'if unit.province in state.units: continue' -> 'break'": "after a Fall's change of "
            "ownership, a unit in a minor's centre has made it conquered, which the line before handles",
    },
    "mail/mailread.py": {
        "read_mailbox: Maildir(create=False) or mbox(create=False) -> True": "the folder or file exists "
                                                                            "(read_mailbox looked), so nothing "
                                                                            "is created",
        "read_mailbox: mbox read with ordered=True": "an mbox's keys are its message numbers, already in file order",
        "sender_address: 'values[0]', 'found[0]' -> '[-1]'": "exactly one header and one address are let through",
        "parse_date: 'values[0]' -> 'values[-1]'": "a second Date header makes it unreadable whichever is read",
        "is_password_like: 'len(w) >= 5' -> '>= 4' before the likeness test": "a four-letter word is at most 0.67 "
                                                                               "like 'password', under the 0.75 needed",
        "split_lines: the first 'last = 0' -> 1 or -1": "it is only compared while a quoted run is open, and the "
                                                        "first non-blank line opens none",
        "split_lines: \"f'line {quoted[0]}'\" -> 'quoted[1]' or '[-1]'": "this label is only used when the run "
                                                                          "is [number, number]",
    },
    "store/names.py": {
        "skeleton: getSkeleton(0, ...) -> 1 or -1": "ICU ignores the type argument since ICU 58",
    },
    "store/storage.py": {
        "_StrictLoader.construct_mapping: 'deep=False' -> True": "deep only changes when nested values are built: "
                                                                "without aliases (refused) each node is built once, "
                                                                "the same",
        "_KEEP_TAG: 'sys.version_info[:2]' -> '[:3]' or '[:1]'": "the tag changes more or less often; the data "
                                                                  "kept is plain, which marshal (its version in "
                                                                  "the tag) reads the same in every Python 3",
        "atomic_write: 'mode != 0o600' -> 0o601 or 0o577": "the default mode is then set again by fchmod to the 0600 "
                                                          "mkstemp gave",
    },
    "store/gamemeta.py": {
        "check_meta: \"meta.get('seed', 0)\" -> 1 or -1": "the default is only checked to be a whole number",
    },
    "store/packagedata.py": {
        "package_folder: 'folders[0]' -> 'folders[-1]'": "read only when there is one folder",
    },
    "store/folderlock.py": {
        "the Windows branch's 'except filelock.Timeout' and 'except OSError' dropped": "never runs on POSIX, "
                                                                                       "where the tool and CI run",
        "_try_flock: getattr(os, 'O_NOFOLLOW', 0) -> 1 or -1": "every POSIX system Python runs on has "
                                                               "O_NOFOLLOW: the default is never used",
    },
    "store/phasecommit.py": {
        "_write_synced's default mode": "used only for the staging JOURNAL, which holds paths, not content, "
                                        "and is removed once applied",
        "os.open's mode": "fchmod sets the mode the line after, whatever os.open was given",
    },
}

CONFIG = """[cosmic-ray]
module-path = "{module}"
timeout = {timeout}
excluded-modules = []
test-command = "{python} {pytest} {tests}"

[cosmic-ray.distributor]
name = "local"

[cosmic-ray.filters.operators-filter]
exclude-operators = {excluded}
"""


@dataclass
class Figures:
    module: str
    killed: int = 0
    survived: int = 0
    incompetent: int = 0           # the mutant could not run (an import error, a crash of the worker)
    survivors: list[str] = field(default_factory=list)

    def line(self) -> str:
        total = self.killed + self.survived
        rate = 100.0 * self.killed / total if total else 100.0
        return f"{self.module}: {self.killed} killed of {total} ({rate:.1f}%), {self.incompetent} incompetent"


def run(module: str, tests: list[str], timeout: float = 120.0) -> Figures:
    """Mutate one module against its tests; its figures and surviving mutants."""
    name = module.replace("/", "-").removesuffix(".py")
    WORK.mkdir(exist_ok=True)
    config, session = WORK / f"{name}.toml", WORK / f"{name}.sqlite"
    config.write_text(CONFIG.format(module=f"adjudicator/{module}", timeout=timeout, python=sys.executable,
                                    pytest=PYTEST, tests=" ".join(tests), excluded=json.dumps(EXCLUDED_OPERATORS)),
                      encoding="utf-8")
    session.unlink(missing_ok=True)
    bin_dir = Path(sys.executable).parent
    subprocess.run([bin_dir / "cosmic-ray", "init", config, session], cwd=ROOT, check=True)
    subprocess.run([bin_dir / "cr-filter-operators", session, config], cwd=ROOT, check=True)
    subprocess.run([bin_dir / "cosmic-ray", "exec", config, session], cwd=ROOT, check=True)
    dump = subprocess.run([bin_dir / "cosmic-ray", "dump", session], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout
    figures = Figures(module)
    for line in dump.splitlines():
        item, result = json.loads(line)
        if result is None or result.get("worker_outcome") == "skipped":
            continue
        outcome = result.get("test_outcome")
        if outcome == "killed":
            figures.killed += 1
        elif outcome == "survived":
            figures.survived += 1
            for mutation in item["mutations"]:
                figures.survivors.append(f"{module}:{mutation['start_pos'][0]} {mutation['operator_name']}")
        else:
            figures.incompetent += 1
    return figures


def main(argv: list[str]) -> int:
    chosen = argv or list(MODULES)
    unknown = [m for m in chosen if m not in MODULES]
    if unknown:
        print(f"mutation: unknown module {unknown[0]!r}; one of: {', '.join(MODULES)}", file=sys.stderr)
        return 2
    lines = []
    for module in chosen:
        figures = run(module, MODULES[module])
        print(figures.line(), flush=True)
        lines += [figures.line(), *(f"  survived: {s}" for s in figures.survivors)]
    report = "\n".join(lines) + "\n"
    (WORK / "report.txt").write_text(report, encoding="utf-8")
    print(report, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
