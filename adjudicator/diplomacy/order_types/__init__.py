"""One module per order type, as godip's `orders/` has: each holds that
order's parsing form, its validation and its adjudication.

    hold      Hold: stays; a province's hold strength
    move      Move: the tail '- dest [via convoy]' and the path convoy
              'A lon - nth - nwy'; where it may go; attack, defend and
              prevent strengths and whether it succeeds; the report's why
    support   SupportHold and SupportMove: what may be supported; which
              support matches an order; supports given and cut
    convoy    Convoy: who may convoy what; a convoyed move's path
    retreat   Retreat: 'R dest'; which retreats are allowed; two to one place fail
    disband   Disband: its forms; a winter disband's checks
    build     Build: its forms; a winter build's checks
    waive     Waive: its form; a winter waive's check

Beside them, the pieces the types share and that know no order type:
`reading` (the order words, the token stream and what a parser lends the
types), `binding` (an order's unit), `verdict` (Void, what a check returns
for an order that breaks a rule) and `board` (a movement phase as the
decisions read it).

The package is named `order_types`, not `orders`, so that it is not taken
for `adjudicator.diplomacy.orders` (the order records, which every layer
imports and which stay there) or for the top-level `orders/` folder of
sample orders.

These modules sit below the parser, validation and the movement phase,
which import them and dispatch to them through tables keyed by order class
or order word; they never import those modules back. This file imports
none of them, so importing one type loads only what it needs."""
