"""Ambition & Empire VI (rules v6.01) as a RuleSet: the standard rules with
the variant's hooks. The rules themselves live in sibling modules:

  ambition_empire_dp      Diplomacy Points, the tally, the religion rule (pre_resolve)
  ambition_empire_sortie  the sortie (post_resolve), minor units dislodged and rebuilt
  ambition_empire_map     straits and Smyrna's coasts (is_adjacent)
  ambition_empire_homes   build sites, additional home centres, victory,
                          civil disorder, draws
The core knows nothing of these: everything reaches it through RULES."""

from __future__ import annotations

import dataclasses

from adjudicator.diplomacy.hooks import RuleSet
from adjudicator.diplomacy.variant import Variant
from adjudicator.rules.ambition_empire_common import setup
from adjudicator.rules.ambition_empire_dp import (
    dp_extension,
    is_allocation,
    pre_resolve,
)
from adjudicator.rules.ambition_empire_homes import (
    after_adjustment,
    apply_civil_disorder,
    build_sites,
    great_power_survivors,
    playing_powers,
    record_draw,
    victory,
)
from adjudicator.rules.ambition_empire_map import is_adjacent
from adjudicator.rules.ambition_empire_sortie import (
    after_movement,
    after_ownership,
    post_resolve,
)
from adjudicator.rules.standard import STANDARD

RULES: RuleSet[Variant] = dataclasses.replace(
    STANDARD,
    name="ambition-empire",
    is_adjacent=is_adjacent,
    pre_resolve=pre_resolve,
    post_resolve=post_resolve,
    after_movement=after_movement,
    after_ownership=after_ownership,
    build_sites=build_sites,
    after_adjustment=after_adjustment,
    victory=victory,
    playing_powers=playing_powers,
    setup=setup,
    parser_extensions=(dp_extension,),
    civil_disorder=apply_civil_disorder,
    survivors=great_power_survivors,
    is_allocation=is_allocation,
)

__all__ = ["RULES", "apply_civil_disorder", "record_draw"]
