"""Voice commands acting on the game: corrections, questions, settings.

Why here and not in the referee: a correction is judged against what the
camera sees. A correction the camera agrees with (or cannot judge) is
applied; one the camera contradicts is said aloud ("I still see a red peg on
space 12") and applied only when the player says it again, so a misheard
command never silently rewrites the game and a misread camera never silently
overrules the players. Every correction is recorded with what was said back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.live import boards
from companion.live.observations import PopSettled, PopUnread, Spoken

if TYPE_CHECKING:
    from companion.live.loop import Loop

HELP = (
    "You can say: undo; the pop was five; it's Blue's turn; skip; red peg on space twelve; "
    "whose turn; where are the pegs; score; repeat; pause; resume; new game; louder; quieter."
)

#: What follows the camera's view when it contradicts a correction.
SAY_AGAIN = "Say it again if you are sure."
#: Commands that change the referee's game (recorded as corrections).
_CHANGING = ("undo", "pop", "turn", "skip", "peg")


def handle_spoken(loop: Loop, cmd: Spoken) -> None:
    """Act on one voice command."""
    intent = cmd.intent
    value = cmd.value
    if intent in ("yes", "no"):
        _confirm(loop, cmd)
        return
    if intent == "stop":
        _speaker_call(loop, "stop")
        return
    if intent in ("louder", "quieter", "quiet"):
        _speaker_call(loop, intent)
        return
    if intent == "repeat":
        if not _speaker_call(loop, "repeat") and loop.said:
            loop.say(loop.said[-1].text)
        return
    if intent == "help":
        loop.say(HELP)
        return
    if intent == "rule":
        answer = value.get("answer") or value.get("text")
        loop.say(str(answer) if answer else "I do not know that rule question.")
        return
    if intent == "pause":
        loop.paused = True
        loop.missed_while_paused = False
        loop.say("Paused. Say resume to carry on.")
        return
    if intent == "resume":
        if loop.paused:
            loop.paused = False
            loop.say("Carrying on.")
            if loop.stage == "game" and loop.missed_while_paused:
                # Something was played while the camera was ignored: check
                # the board. (After a pause in which nothing moved, checking
                # held up the moves that followed in seeded games.)
                loop.stage = "check"
                loop.check_said = None
        return
    if intent == "whose-turn":
        loop.say(_whose_turn(loop))
        return
    if intent == "status":
        colour = value.get("color") or (loop.referee.player if value.get("mine") else None)
        loop.say(_status(loop, colour))
        return
    if intent == "score":
        loop.say(loop.score_sentence() if loop.score_sentence else "I am not keeping score this time.")
        return
    if intent == "prompt":
        loop.say(str(value.get("text", "")))
        return
    if intent == "new-game":
        loop.pending_confirm = cmd
        if value.get("confirmed"):
            # The listener has already asked and heard yes.
            _confirm(loop, Spoken(cmd.t, "yes"))
            return
        loop.say("Start a new game? Say yes or no.")
        return
    if intent == "pop" and loop.held_denied is not None and isinstance(value.get("value"), int):
        # The number asked for after "no" to a held pop's guess.
        loop.answer_held(int(value["value"]))
        _record_said(loop, cmd)
        return
    if intent in _CHANGING:
        if loop.stage not in ("game", "check", "over") or loop.referee.state is None:
            loop.say("The game has not started yet.")
            return
        if loop.stage == "over" and intent == "pop":
            # A number said after the win (a late answer to "say the number
            # you popped") corrects nothing: the referee would refuse it as an
            # illegal input, which the table hears as a call.
            loop.say("The game is over.")
            return
        _correct(loop, cmd)
        return
    loop.say("Sorry, I cannot do that.")


def _speaker_call(loop: Loop, name: str) -> bool:
    method = getattr(loop.speaker, name, None)
    if callable(method):
        method()
        return True
    return False


def _confirm(loop: Loop, cmd: Spoken) -> None:
    pending = loop.pending_confirm
    loop.pending_confirm = None
    if pending is None:
        # Perhaps the answer to the loop's own question ("Blue, was your pop
        # a 3?"); yes or no to nothing is let pass.
        if loop.answer_question(cmd.intent == "yes"):
            _record_said(loop, cmd)
        return
    if cmd.intent == "no":
        loop.say("All right, the game goes on.")
        return
    if pending.intent == "new-game":
        if loop.recorder is not None and loop.stage != "over":
            abandon = getattr(loop.recorder, "abandon", None)
            if callable(abandon):
                abandon()
        loop.start(loop.players, loop.rules, loop.first, loop.opening_pegs)  # forgets the game before
    elif pending.intent in _CHANGING:
        _apply(loop, pending, "Done.")


def _whose_turn(loop: Loop) -> str:
    view = loop.referee
    if view.state is None:
        return "The game has not started yet."
    if view.over:
        return "The game is over."
    player = (view.player or "").capitalize()
    if view.phase == "first":
        return f"We are popping to see who goes first. {player}, pop."
    if view.phase == "move":
        return f"It is {player}'s turn, to move a peg {view.pending_pop}."
    return f"It is {player}'s turn to pop."


def _status(loop: Loop, colour: object) -> str:
    position = loop.referee.position
    if not position:
        return "The game has not started yet."
    colours = [colour] if isinstance(colour, str) and colour in position else list(position)
    parts = []
    for c in colours:
        places = position[c]
        home = places.count("home")
        out = [boards.spoken_place(p) for p in places if p != "home"]
        said = f"{c.capitalize()}: {home} in Home"
        if out:
            said += ", " + ", ".join(out)
        parts.append(said + ".")
    return " ".join(parts)


def _line_for(loop: Loop, cmd: Spoken) -> dict[str, Any] | None:
    """The referee command line for a correction, or ``None`` if incomplete."""
    value = cmd.value
    if cmd.intent == "undo":
        return {"command": "undo"}
    if cmd.intent == "skip":
        return {"command": "skip"}
    if cmd.intent == "pop":
        v = value.get("value")
        if not isinstance(v, int):
            return None
        # No pop yet this turn (the camera missed it), or a pop it saw but
        # could not read: the spoken number is the pop.
        if loop.referee.phase == "pop" or loop.unread is not None:
            return {"pop": v}
        return {"command": "pop", "value": v}
    if cmd.intent == "turn":
        c = value.get("color") or value.get("value")
        return {"command": "turn", "color": c} if isinstance(c, str) else None
    if cmd.intent == "peg":
        colour = value.get("color")
        to = value.get("to") or value.get("place")
        if not isinstance(colour, str) or not isinstance(to, str):
            return None
        frm = value.get("from")
        if not isinstance(frm, str):
            frm = _guess_from(loop, colour, to)
            if frm is None:
                return None
        return {"command": "peg", "color": colour, "from": frm, "to": to}
    return None


def _guess_from(loop: Loop, colour: str, to: str) -> str | None:
    """Which of the colour's pegs a "red peg on twelve" correction moves.

    The one the camera does not see where the game has it; failing that, the
    only peg of that colour not already on *to*.
    """
    game = loop.referee.position.get(colour, [])
    seen = (loop.last_board or {}).get(colour, [])
    unseen = [p for p in game if p != to and game.count(p) > seen.count(p)]
    if unseen:
        return unseen[0]
    candidates = sorted({p for p in game if p != to})
    return candidates[0] if len(candidates) == 1 else None


def _contradiction(loop: Loop, cmd: Spoken, line: dict[str, Any]) -> str | None:
    """What the camera sees against this correction, as a sentence, or ``None``."""
    seen = loop.last_board
    if seen is None or loop.camera_lost:
        return None
    if cmd.intent == "peg":
        colour, frm, to = line["color"], line["from"], line["to"]
        mine = seen.get(colour, [])
        if to != "home" and to not in mine:
            return f"I do not see a {colour} peg on {boards.spoken_place(to)}."
        if frm != "home" and frm in mine and mine.count(frm) >= loop.referee.position.get(colour, []).count(frm):
            return f"I still see a {colour} peg on {boards.spoken_place(frm)}."
    if cmd.intent == "pop" and "command" in line:
        last = loop.last_pop_seen
        if (last is not None and last != line["value"] and not loop.last_pop_doubted
                and not loop.last_pop_owner_doubted):
            # (A 6 read while the move before it was still to come, that move
            # made on a pop the camera did not read, may have been that
            # player's own extra pop: the next player's number does not
            # contradict it. Truth seed 6229 at 0.3: Blue's unread 6 and read
            # 6 lost, Blue's 2 unseen; Blue's "two" taken for the unread pop,
            # the 6 given to Yellow, and Yellow's "five" answered "I saw a 6"
            # and its move called.)
            return f"I saw a {last} on the die."
    return None


#: A number said this soon after the game took the same number as the last
#: pop is that pop confirmed, not the next pop (see :func:`_echo`).
SPOKEN_ECHO_S = 4.0
#: A number said within this many seconds of the loop asking for a pop may
#: be the answer to it, even when the loop has worked the pop out since.
ANSWER_S = 4.0


def _echo(loop: Loop, cmd: Spoken) -> str | None:
    """The last pop of the game, taken moments ago, that *cmd* names again
    while the next pop is awaited and none has been seen since: the player
    who moved is saying the number the camera missed, which the loop has
    already worked out from the move or taken from the die (seeded games:
    "That move means Blue popped a 5", then Blue's "five" fed as Red's pop;
    getting back in step on a 1, then the mover's "one" fed as the next
    player's: the turns went one out and a later move was called out of
    turn). The answer to give, or ``None`` when it is not such an echo."""
    value = cmd.value.get("value")
    if cmd.intent != "pop" or loop.referee.phase != "pop" or (loop.unread is not None and loop.unread.asked):
        return None  # (a pop seen but not read, asked for, is waiting for this very number)
    if loop.unseen_pop_board is not None:
        # A move made on a pop the camera never saw waits for this number
        # (asked: "I did not see Red's pop"); a seeded game took Red's answer
        # "one" for an echo of Green's 1 said moments before.
        return None
    last = next((i for i in range(len(loop.events) - 1, -1, -1) if loop.events[i][1].get("event") == "pop"), None)
    # The last pop, or a pop the loop worked out moments ago after asking
    # the players for it: their answer comes after the loop has
    # settled it from the move, and the next pop, read, is already in (a
    # seeded game: Blue's answer "five" was fed as Green's pop), or seen
    # but not read and not yet asked for (Blue's "five" fed as Yellow's).
    answered = [i for i, asked_at in loop.worked_out_asked[-2:] if cmd.t - asked_at <= ANSWER_S]
    # And any pop worked out moments ago, though pops read after it were
    # played after it: a catch-up plays an unread pop's move and then the
    # pops held behind it (a truth game, seed 6255 at three tenths unread:
    # Red's 5, missed by the camera, worked out among Blue's lost 6 and 4;
    # Red's "five", said after the move, was fed as Red's next pop, and Red's
    # next move, a 3, was called "That peg moved 3 spaces, but the pop was 5").
    # Not while the board shows more than the game: a move made since on a
    # pop the camera missed waits for this very number (truth seed 7407 at
    # three tenths: Blue's "four" for its move 16 -> 20 taken for the 4 a
    # catch-up had just played again, and that move then called).
    position = loop.referee.position
    agreed = loop.last_board is not None and boards.same(loop.last_board, position, position)
    worked_out = [i for i in loop.worked_out[-4:] if 0.0 <= cmd.t - loop.events[i][0] <= SPOKEN_ECHO_S] if agreed else []
    candidates = answered if loop.unread is not None else [last, *answered, *worked_out]
    for index in sorted({i for i in candidates if i is not None}, reverse=True):
        at, event = loop.events[index]
        if event.get("value") != value or not 0.0 <= cmd.t - at <= SPOKEN_ECHO_S:
            continue
        if (loop.pop_seen_at is not None and loop.pop_seen_at > at) or loop.echo_heard == index:
            return None  # a pop since, or the number said again: it is a pop
        loop.echo_heard = index
        return f"Yes: {str(event.get('color', '')).capitalize()} popped {value}."
    return None


def _same_pop(loop: Loop, cmd: Spoken) -> str | None:
    """What to answer when *cmd* names a pop the game already has (the one
    the player now moving popped, or one seen and held while the move
    before it is finished): a confirmation, not a correction. It used to be
    fed as one ("Corrected: Blue's pop was 3. Blue popped 3.", two events in
    the record for nothing), and a number naming the held pop corrected the
    pop before it. ``None`` when it is not such a number; ``""`` when the
    confirmation goes without saying."""
    from companion.live.loop import COUNT_STARTS

    if cmd.intent != "pop" or loop.unread is not None:
        return None
    value = cmd.value.get("value")
    if loop.held_pops and isinstance(loop.held_pops[-1], PopSettled):
        return f"Yes, I saw the {value}." if value == loop.held_pops[-1].value else None
    if loop.held_pops and not (value in COUNT_STARTS and value == loop.referee.pending_pop):
        # A pop seen since and not read is held: the number names it
        # (``_apply``: "Noted: ..."), not the pop being moved, even when it
        # is that pop's value too. (A table saying each number, fresh game
        # 969, session 52: the board unread for minutes, each new pop held,
        # and its number, that of the pop being moved, answered "Yes: Red
        # popped 4.": the held pops kept no values, and the loop lost track
        # when the board was read.)
        return None
    if loop.held_pops:
        # The same "one" or "two" as the pop being moved, said after the
        # next pop was seen but not read: a count of that pop's move as
        # likely as its number. Neither confirmed nor noted. (Held-out game
        # 1083 with a table counting aloud, session 52: Red's count's "one"
        # taken for Red's unread pop, then Blue's count's "one", said after
        # Blue's unread pop, answered "Yes: Red popped 1.")
        return ""
    if loop.referee.phase == "move" and value == loop.referee.pending_pop:
        if loop.last_pop_seen == value and not loop.last_pop_doubted:
            # Read surely and announced moments ago: said again, nothing (a
            # table saying each number, or counting aloud on a 1, heard
            # "Red popped 1." then "Yes: Red popped 1." every time)
            return ""
        return f"Yes: {(loop.referee.player or '').capitalize()} popped {value}."
    return None


#: How long a number that may be a count is held for the move it counts
#: (see :class:`HeldNumber`): a peg counted six spaces at a number every
#: half second, then the hand lifted and the board read.
COUNT_HOLD_S = 6.0

#: How long it is held while its move may be over but not yet judged: a
#: pop has settled since it was said (its player's move is over, the next
#: player has popped), or the board is not at rest where the game has it
#: (hands over it, a move seen but not yet judged, a peg missing). Answered
#: at :data:`COUNT_HOLD_S` instead, a count was answered "I saw a 3 on the
#: die. Say it again if you are sure.", and the next player's count, "one"
#: again, taken for the number said again, had the camera overruled and a
#: right move called (fresh games 1045, 1062 and 1076 with a table counting
#: aloud, session 51). Not judged by then, it is dropped once a pop has
#: settled since (the game has moved on), answered otherwise.
COUNT_HOLD_UNSEEN_S = 30.0


@dataclass(frozen=True)
class HeldNumber:
    """A spoken "one" or "two" (``loop.COUNT_STARTS``) other than the pop
    being moved (read by the camera, said or worked out), said while its
    player moves: a count aloud as likely as a correction. It is held until
    the move is judged. A move that fits the pop shows it was counting, and
    nothing is said or changed. Until
    session 49 it was taken at once: against a sure read, answered "I saw a
    5 on the die. Say it again if you are sure." (urgent, after every count
    aloud); against a read said with a doubt, applied as the pop, and the
    move of the number read then called ("Red popped 4, I think." then
    "That peg moved 4 spaces, but the pop was 1."). A move called, no move
    within :data:`COUNT_HOLD_S`, or the number said again, and it is a
    correction after all, taken as before (a sure read answered, a third
    time overruling it; a doubted one corrected). A move that fits the
    number said and not the pop, which stood on no sure read, has the
    number taken (``Loop._held_number_moved``). While the move may be over
    and not yet judged (a pop has settled since the number, or the board is
    not at rest where the game has it), it waits for up to
    :data:`COUNT_HOLD_UNSEEN_S`."""

    cmd: Spoken
    line: dict[str, Any]
    #: What the camera saw against it ("I saw a 5 on the die."), or None
    #: for a pop on no sure read (read with a doubt, said, worked out),
    #: which the players' word corrects.
    said: str | None
    #: ``len(loop.events)`` when it was held: the events after it are the move's.
    events: int
    mover: str
    read: int
    #: The pop it may count is held behind the move before it (seen, not
    #: yet fed): its move is the one after that pop is fed.
    pop_held: bool = False


def _correct(loop: Loop, cmd: Spoken) -> None:
    yes = _echo(loop, cmd)
    if yes is None:
        yes = _same_pop(loop, cmd)
    if yes is not None:
        if yes:
            loop.say(yes)
        _record(loop, cmd, yes or "the pop the camera read and announced: nothing to say")
        return
    line = _line_for(loop, cmd)
    if line is None:
        loop.say("I did not understand that correction. Say it again, please.")
        return
    said = _contradiction(loop, cmd, line)
    held, loop.held_number = loop.held_number, None
    # no count says a number twice: taken now (unless a pop has settled
    # since: the next player's count begins with "one" too)
    again = held is not None and held.line == line and not _popped_since(loop, held.cmd.t)
    if held is not None and not again:
        _record(loop, held.cmd, "not taken: another correction followed it")
    if (not again and (said is None or not _said_again(loop, line)) and _may_be_counting(loop, cmd)
            and (said is not None or not loop.held_pops or _read_late(loop.held_pops[-1]))):
        # (with pops held, only a number the camera contradicts, if only by
        # a late read: one it cannot is often a pop of its own, said by a
        # player whose pop the camera missed -- the truth games' seeds 868
        # and 1282)
        held_pop = loop.held_pops[-1] if loop.held_pops else None
        read = held_pop.value if isinstance(held_pop, PopSettled) else int(loop.referee.pending_pop or 0)
        loop.held_number = HeldNumber(cmd, line, said, len(loop.events), loop.referee.player or "", read,
                                      pop_held=held_pop is not None)
        return
    _take(loop, cmd, line, said)


def _take(loop: Loop, cmd: Spoken, line: dict[str, Any], said: str | None) -> None:
    """Take the correction *cmd*: answered with what the camera saw against
    it (*said*) the first time, applied otherwise."""
    if said is not None and not _said_again(loop, line):
        loop.last_contradiction = (line, len(loop.events), loop.t)
        loop.contradictions += 1
        loop.say(f"{said} {SAY_AGAIN}", urgent=True)
        if cmd.intent == "pop" and isinstance(cmd.value.get("value"), int):
            loop.heard_after_board(int(cmd.value["value"]), cmd.t)
        _record(loop, cmd, said)
        return
    loop.last_contradiction = None
    _apply(loop, cmd, "Overruling the camera." if said else "")


def _said_again(loop: Loop, line: dict[str, Any]) -> bool:
    """*line* was the last correction answered with what the camera saw,
    and nothing has happened in the game since: said again, it overrules
    the camera. (Until session 49 any later correction alike did: a table
    counting aloud had the "one" of its next count taken as the first
    "one" said again, over the next pop read, and that move called.) A pop
    settled since it was answered is something happening too, though the
    board may not yet show the move before it."""
    last = loop.last_contradiction
    return (last is not None and last[:2] == (line, len(loop.events))
            and not _popped_since(loop, last[2]))


def _popped_since(loop: Loop, t: float) -> bool:
    """The camera has seen a pop settle (read or not) after time *t*."""
    return loop.pop_seen_at is not None and loop.pop_seen_at > t


def _may_be_counting(loop: Loop, cmd: Spoken) -> bool:
    """*cmd* may be a count aloud: a ``COUNT_STARTS`` number said while a
    pop of another number is being moved (read by the camera, said, or
    worked out), or while the next pop, read surely, waits for the move
    before it."""
    from companion.live.loop import COUNT_STARTS, PHANTOM_READ

    value = cmd.value.get("value")
    if cmd.intent != "pop" or value not in COUNT_STARTS:
        return False
    if loop.held_pops:
        # the next pop, read surely and held while the board still lags
        # behind the move before it: its player counts meanwhile (fresh
        # game 1016-1031's 1025, a board reported late all game: 58 counts
        # answered "I saw a 4 on the die. ...")
        last = loop.held_pops[-1]
        return (isinstance(last, PopSettled) and last.value != value
                and (last.confidence >= PHANTOM_READ or _read_late(last)))
    pending = loop.referee.pending_pop
    return loop.referee.phase == "move" and pending is not None and pending != value


def _read_late(pop: PopSettled | PopUnread) -> bool:
    """*pop*, held, was reported unread and then read after all
    (``Loop._on_late_read``): the camera's, if weakly. A count's "one" said
    just after it was taken for its correction (held-out game 1147 counting
    aloud, session 53: Blue's 3 read late under Red's move, still being
    read, then Blue's count "one": "Corrected: the pop on the die is 1.",
    and Blue's move of 3 called)."""
    from companion.live.loop import LATE_READ_CONFIDENCE

    return isinstance(pop, PopSettled) and pop.confidence == LATE_READ_CONFIDENCE


def settle_held_number(loop: Loop) -> None:
    """Drop or take the :class:`HeldNumber`, once the move it may count is
    judged or :data:`COUNT_HOLD_S` has passed."""
    held = loop.held_number
    if held is None:
        return
    later = [e for _t, e in loop.events[held.events:]]
    mover, judged = held.mover, _judged(later)
    if held.pop_held:
        # The held pop's own move: the one after that pop is fed. A
        # catch-up may feed other pops of its value first (fresh game 997
        # with a table counting aloud, session 51: Blue's lost 2 taken for
        # Red's held 2, and Red's count answered "I saw a 2 on the die.
        # ..."): one followed by its player's move is the count's, one
        # whose move is still to come may be.
        fed = [(str(e.get("color", "")), _judged(later[i + 1:])) for i, e in enumerate(later)
               if e.get("event") == "pop" and e.get("value") == held.read]
        mover, judged = next((f for f in fed if _moved(*f)), next((f for f in fed if f[1] is None),
                                                                  fed[0] if fed else ("", None)))
    played_on = _popped_since(loop, held.cmd.t)
    hold = COUNT_HOLD_S if not played_on and _board_at_rest(loop) else COUNT_HOLD_UNSEEN_S
    if judged is None and loop.t - held.cmd.t < hold - 1e-9:
        return
    loop.held_number = None
    last = loop.held_pops[-1] if loop.held_pops else None
    standing = ((loop.referee.phase == "move" and loop.referee.pending_pop == held.read)
                or (held.pop_held and isinstance(last, PopSettled) and last.value == held.read))
    if judged is not None and _moved(mover, judged):
        why = ("the move shows the pop was" if judged.get("value") == held.cmd.value.get("value")
               else "the move that followed fits the pop of") + f" {judged.get('value')}"
        _record(loop, held.cmd, f"not taken: {why} (a count aloud, or settled by the move)")
    elif judged is None and (played_on or not standing):
        _record(loop, held.cmd, "not taken: the game moved on")
    elif judged is not None and held.said is None:
        _record(loop, held.cmd, "not taken: the move was judged on the pop as it stood")
    else:
        _take(loop, held.cmd, held.line, held.said)


def _board_at_rest(loop: Loop) -> bool:
    """The last board reported is where the game has it, and no change is
    under way (``BoardUnsettled``): nobody has moved."""
    return (not loop.board_unsettled and loop.board_seen_at is not None
            and loop.board_agreed_at == loop.board_seen_at)


def _judged(events: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The first move judged among *events* (made, called, or lost)."""
    return next((e for e in events if e.get("event") in ("move", "illegal", "no-move")), None)


def _moved(mover: str, judged: dict[str, Any] | None) -> bool:
    """*judged* is a move *mover* made."""
    return judged is not None and judged.get("event") == "move" and judged.get("color") == mover


def take_held_number(loop: Loop) -> None:
    """Take the :class:`HeldNumber` as the pop being moved, now: the board
    shows a move for it, and the pop stood on no sure read
    (``Loop._held_number_moved``)."""
    held, loop.held_number = loop.held_number, None
    if held is None:
        return
    before = loop.referee.state
    events = loop.feed(held.line, origin="voice")
    loop.voice_changed_game(held.cmd.intent, held.line, before)
    outcome = " ".join(str(e.get("text", "")) for e in events).strip()
    _record(loop, held.cmd, f"taken when the move showed it: {outcome}" if outcome else "no change")


def _apply(loop: Loop, cmd: Spoken, preface: str) -> None:
    line = _line_for(loop, cmd)
    if line is None:
        return
    if preface:
        loop.say(preface)
    held = loop.held_pops[-1] if loop.held_pops else None
    if "command" in line and line["command"] == "pop" and isinstance(held, PopSettled):
        # The die shows a pop seen and held (the move before it not yet
        # seen): "the pop was two" corrects that pop, not the one before it
        # (which was corrected, and its move then called a wrong count).
        # Said once against a doubted read, it is as weak as a number said
        # for a pop unread (below): a counted "one" is no pop, and a
        # catch-up may take it back (fresh game 997 with a table counting
        # aloud, session 51: Yellow's 4, read late at 0.9, "corrected" to
        # the "one" of its count, and five moves seen together called).
        # Said again over the camera's view (*preface*), it stands.
        from companion.live.loop import SPOKEN_POP_CONFIDENCE

        loop.held_pops[-1] = PopSettled(held.t, int(line["value"]),
                                        confidence=1.0 if preface else SPOKEN_POP_CONFIDENCE)
        said = f"Corrected: the pop on the die is {line['value']}."
        loop.say(said)
        loop.last_pop_seen = int(line["value"])
        loop.last_pop_doubted = False
        _record(loop, cmd, said)
        return
    if "command" in line and line["command"] == "pop" and isinstance(held, PopUnread):
        # A pop seen but not read, held while the move before it is not yet
        # seen: the number said is that pop's, as it is for an unread pop
        # not held (``_line_for``), not a correction of the pop being
        # moved. A table asked to say each number (the camera blind to the
        # die) said the 4 it had just popped while the camera had yet to see
        # the move of the 6 before it; "Corrected: Green's pop was 4" took
        # the 4 for the 6, and Green's two moves were called (``--illegal``
        # game 23 at 640x480, session 48). Weak, as any number said before
        # its move: a counted "one" is no pop (``Loop.voice_changed_game``).
        from companion.live.loop import SPOKEN_POP_CONFIDENCE

        value = int(line["value"])
        loop.held_pops[-1] = PopSettled(held.t, value, confidence=SPOKEN_POP_CONFIDENCE)
        said = f"Noted: the pop on the die is {value}."
        loop.say(said)
        _record(loop, cmd, said)
        return
    if "pop" in line and loop.unread is not None and loop.answer_was_popped_again(int(line["pop"])):
        _record_said(loop, cmd)
        return
    answers_unread = loop.unread is not None  # (after the take-back: the unread pop may have changed)
    before = loop.referee.state
    events = loop.feed(line, origin="voice")
    loop.voice_changed_game(cmd.intent, line, before)
    if "pop" in line and not answers_unread:
        # A pop the camera has not reported yet: its report, moments later,
        # is this pop, not another. (A pop seen but not read was reported
        # already: a pop seen after its number was said is the next one.)
        loop.spoken_pop = (int(line["pop"]), cmd.t)
    outcome = " ".join(str(e.get("text", "")) for e in events).strip()
    _record(loop, cmd, outcome or "no change")
    loop.before_move = None  # a later board is no longer a change of mind
    if cmd.intent == "peg":
        # The players overruled (or agreed with) the camera about a peg: the
        # picture as it is must not be fed straight back as a move.
        loop.board_stale = True
        loop.illegal_board = None
        return
    if cmd.intent == "undo":
        # The camera still shows the undone move: wait for the board to
        # change instead of feeding the same picture straight back.
        loop.board_stale = True
        loop.illegal_board = None
        if loop.last_board is not None:
            wrong = boards.differences(loop.last_board, loop.referee.position)
            if wrong:
                loop.say("Please put the pegs back. " + " ".join(wrong[:2]))
        return
    loop.reevaluate()


def _record_said(loop: Loop, cmd: Spoken) -> None:
    """Record *cmd* with the loop's last sentence as its outcome."""
    _record(loop, cmd, loop.said[-1].text if loop.said else "")


def _record(loop: Loop, cmd: Spoken, outcome: str) -> None:
    if loop.recorder is not None:
        loop.recorder.correction({"intent": cmd.intent, **cmd.value}, outcome, loop.t)
