"""Output events of the referee and the sentences spoken for them.

An event is a plain dict (it becomes one JSON line): ``event`` and ``text``
always, then only the fields that apply. Texts are short sentences for a
family at a table and for players who cannot see the board: colour first,
places said as "space 12", "Red's Start", "Finish 2".
"""

from __future__ import annotations

from typing import Any

from companion.rules import COLOR_INDEX, COLORS, Move, State, spoken_place, title

Event = dict[str, Any]

ORDINALS = {1: "first", 2: "second", 3: "third", 4: "fourth"}


def event(name: str, text: str, **fields: Any) -> Event:
    """An event dict with the fields that apply (``None`` fields dropped)."""
    out: Event = {"event": name, "text": text}
    out.update({k.rstrip("_"): v for k, v in fields.items() if v is not None})
    return out


def join_names(colors: list[str]) -> str:
    """``Red``, ``Red and Blue``, ``Red, Blue and Green``."""
    titled = [c.capitalize() for c in colors]
    return titled[0] if len(titled) == 1 else ", ".join(titled[:-1]) + " and " + titled[-1]


def player_name(state: State, side: int) -> str:
    return COLORS[state.sides[side][0]]


def side_fields(state: State, side: int) -> dict[str, Any]:
    """``color`` (the player's naming colour) and, for a two-colour player, ``colors``."""
    colors = [COLORS[c] for c in state.sides[side]]
    return {"color": colors[0], "colors": colors if len(colors) > 1 else None}


def error(text: str) -> Event:
    return event("error", text)


def illegal(reason: str, text: str, **fields: Any) -> Event:
    return event("illegal", text, reason=reason, **fields)


def prompt(state: State) -> str:
    """What the table must do next, as a sentence."""
    if state.player is None:
        return "The game is over."
    name = state.player.capitalize()
    if state.contenders:
        return f"{name}, pop to see who goes first."
    if state.pop:
        return f"{name}, move a peg {state.pop}."
    return f"{name}, pop."


def turn(state: State) -> Event:
    name = title(state.sides[state.turn][0])
    return event("turn", f"{name}'s turn.", **side_fields(state, state.turn))


def pop(state: State, side: int, value: int) -> Event:
    article = "a " if value == 6 else ""
    text = f"{title(state.sides[side][0])} popped {article}{value}."
    return event("pop", text, value=value, **side_fields(state, side))


def move(move: Move) -> list[Event]:
    """The ``move`` event and, when a peg is sent Home, the ``bump`` event."""
    c = COLOR_INDEX[move.color]
    name = title(c)
    if move.leaves_home:
        text = f"{name} brings a peg out onto {name}'s Start."
    else:
        text = f"{name} moves {move.value} from {spoken_place(c, move.frm)} to {spoken_place(c, move.to)}."
    events = [
        event(
            "move",
            text,
            color=move.color,
            from_=move.from_place,
            to=move.to_place,
            value=move.value,
        )
    ]
    if move.victim:
        victim = move.victim.capitalize()
        events.append(
            event(
                "bump",
                f"{name} bumps {victim}: the {move.victim} peg goes back Home.",
                color=move.color,
                victim=move.victim,
                at=move.at,
            )
        )
    return events


def after_move(before: State, after: State) -> list[Event]:
    """What follows a played or lost move: a finish, the end, an extra pop or the next turn."""
    events: list[Event] = []
    for place in range(len(before.finished) + 1, len(after.finished) + 1):
        side = after.finished[place - 1]
        name = title(after.sides[side][0])
        text = f"{name} has finished: {ORDINALS[place]} place!"
        if place == 1:
            text = f"{name} has all its pegs in Finish and wins!"
        events.append(event("finished", text, place=place, **side_fields(after, side)))
    if after.player is None:
        order = [player_name(after, s) for s in after.finished]
        winner = order[0].capitalize()
        if len(order) > 1:
            ranks = ", ".join(f"{ORDINALS[i + 1]} {c.capitalize()}" for i, c in enumerate(order))
            text = f"Game over: {ranks}."
        else:
            text = f"Game over: {winner} wins."
        events.append(event("game-over", text, color=order[0], order=order))
    elif after.turn == before.turn and before.pop == 6:
        name = title(after.sides[after.turn][0])
        events.append(
            event("extra-pop", f"{name} popped a 6: pop again.", **side_fields(after, after.turn))
        )
    else:
        events.append(turn(after))
    return events


def no_move(state: State, reason: str) -> Event:
    name = title(state.sides[state.turn][0])
    value = state.pop
    if reason == "needs-six":
        text = f"{name} needs a 6 to bring a peg out: the move is lost."
    elif reason == "third-six":
        text = f"That is {name}'s third 6 in a row: the turn ends."
    else:
        text = f"No {name} peg can move {value}: the move is lost."
    return event("no-move", text, reason=reason, value=value, **side_fields(state, state.turn))
