"""`resign`: the player leaves the game. Their name, address and password
leave the roster at once (the power stays: its units hold, NMR, until someone
takes it), the GM is told who left and how to seat a replacement, and the
player gets no more mail from the game."""

from __future__ import annotations

from adjudicator.mail.announce import tell_gm
from adjudicator.mail.commands.base import Asked, Command, current_slug, seat_label


def run(asked: Asked, command: Command) -> str:
    asked.verdict.effects.append(lambda: leave(asked))
    label = seat_label(asked.ctx, asked.seat)
    return (f"You have resigned {label} in {asked.ctx.game}. Your password no longer works and the judge mails "
            "you nothing more about this game. The GM is told; the power waits for a new player.")


def leave(asked: Asked) -> None:
    from adjudicator.folder.players import remove_player, seat_id
    ctx = asked.ctx
    gone = remove_player(ctx.folder, seat_id(ctx.folder, asked.seat))
    ctx.players.pop(asked.letter.sender.lower(), None)       # the rest of this run's mail from them: a stranger's
    label = seat_label(ctx, asked.seat)
    tell_gm(ctx.folder, current_slug(ctx), [
        (f"{gone.get('name') or 'The player'} <{gone.get('email')}> resigned {label} in {ctx.game} by mail at "
        f"{ctx.phase}. The power is open: 'adjudicator player add {ctx.folder.name} {asked.seat} --name ... "
        "--email ...' seats a new player (who gets a welcome with the latest results).")],
        stamp=f"resign {asked.seat} {asked.letter.key}")
