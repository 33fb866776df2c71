"""The ONE definition of what the companion understands by voice.

Every phrase the listener accepts is written once, in :data:`RULES`, in a small
subset of JSGF notation (words, ``[optional]``, ``(a | b)``, ``<slot>``). From
that single table this module derives

* the JSGF grammar PocketSphinx decodes with (:func:`jsgf`),
* the phrase list Vosk's recogniser is restricted to (:func:`phrases`), and
* the parser that turns recognised text into a :class:`Command` (:func:`parse`),

so the three can never disagree (``tests/voice/test_voice_grammar.py`` checks it).

Grammars come in *contexts* (:class:`Context`): what the referee is expecting
changes what can be heard. A small grammar is recognised much better than a big
one (bare digits scored ~80% alone but ~69% inside the full command grammar on
real voices), so a pop correction is decoded against numbers only, a
confirmation against yes/no only, and open table talk needs the wake word.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from typing import Any

#: The wake word. "referee" is three syllables with a distinctive stress
#: pattern, is in the PocketSphinx dictionary, and is rarely said at a table.
WAKE_WORD = "referee"

COLORS = ("red", "blue", "yellow", "green")
#: Start space of each colour on the shared track (docs/development.md).
START_SPACE = {"red": 1, "blue": 8, "yellow": 15, "green": 22}

_UNITS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
          "eighteen", "nineteen", "twenty"]
NUMBER_WORDS: dict[str, int] = {w: i + 1 for i, w in enumerate(_UNITS)}
NUMBER_WORDS.update({f"twenty {w}": 20 + i + 1 for i, w in enumerate(_UNITS[:8])})


def number_word(n: int) -> str:
    """How *n* (1 to 28) is said: ``number_word(5) == "five"``."""
    return next(w for w, v in NUMBER_WORDS.items() if v == n)

#: Pronunciations the PocketSphinx dictionary lacks (CMU phone set).
EXTRA_PRONUNCIATIONS: dict[str, str] = {
    "red's": "R EH D Z",
    "yellow's": "Y EH L OW Z",
}
#: Second pronunciations added to the dictionary's own (CMU phone set):
#: British "pass" is /pɑːs/, which the US model's P AE S fits badly (two
#: British development voices heard "referee pass" as "referee pop was two"
#: or too close to it; docs/voice.md, session 15b).
VARIANT_PRONUNCIATIONS: dict[str, tuple[str, ...]] = {
    "pass": ("P AA S",),
}


@dataclass(frozen=True)
class Command:
    """A recognised voice command, as a value the referee can apply.

    ``intent`` names line up with the referee's command names. Only the
    fields an intent uses are set; :meth:`as_dict` leaves the rest out.
    """

    intent: str
    value: int | None = None
    color: str | None = None
    place: str | None = None
    topic: str | None = None
    mine: bool = False

    def as_dict(self) -> dict[str, Any]:
        """``{"intent": "pop", "value": 5}``: the form `companion listen` prints."""
        out: dict[str, Any] = {"intent": self.intent}
        for key in ("value", "color", "place", "topic"):
            v = getattr(self, key)
            if v is not None:
                out[key] = v
        if self.mine:
            out["mine"] = True
        return out

    def referee_command(self) -> dict[str, Any]:
        """``{"command": "pop", "value": 5}``: the form the headless referee reads."""
        d = self.as_dict()
        return {"command": d.pop("intent"), **d}


#: Intents that change the game so much they are confirmed first.
DESTRUCTIVE = frozenset({"new-game"})
#: Intents accepted without the wake word and never confirmed.
BARE_INTENTS = frozenset({"stop", "cancel"})

Slots = Mapping[str, Any]
Builder = Callable[[Slots], Command]


@dataclass(frozen=True)
class Rule:
    """One intent's phrasings and how to build its command from the slots."""

    intent: str
    patterns: tuple[str, ...]
    build: Builder = field(compare=False)


def _simple(intent: str) -> Builder:
    return lambda s: Command(intent)


SLOTS: dict[str, dict[str, Any]] = {
    "n6": {w: v for w, v in NUMBER_WORDS.items() if v <= 6},
    "n4": {w: v for w, v in NUMBER_WORDS.items() if v <= 4},
    "n28": dict(NUMBER_WORDS),
    "color": {c: c for c in COLORS},
    "colors": {"red's": "red", "blue's": "blue", "yellow's": "yellow", "green's": "green"},
}


def _peg(kind: str) -> Builder:
    def build(s: Slots) -> Command:
        color = s["color"]
        if kind == "track":
            place = f"track:{s['n28']}"
        elif kind == "start":
            place = f"track:{START_SPACE[color]}"
        elif kind == "finish":
            place = f"finish:{s['n4']}"
        else:
            place = "home"
        return Command("peg", color=color, place=place)

    return build


#: Rule questions: topic -> (phrasings, the answer in our own words from
#: /work/shared/rules/trouble-rules-full.txt).
RULE_QUESTIONS: dict[str, tuple[tuple[str, ...], str]] = {
    "own-peg": (("can i land on my own peg", "can two of my pegs share a space"),
                "No. A move cannot end on a space where one of your own pegs sits, "
                "not even your Start space. If no peg can use the number, you lose that move."),
    "leave-home": (("how do i get out of home", "how do i get a peg out"),
                   "You need a six to move a peg out of Home onto your Start space."),
    "six": (("what does a six do", "do i go again on a six"),
            "A six lets you bring a peg out of Home, or move a peg six spaces. "
            "Every six earns another pop, even if it could not move a peg."),
    "bump": (("what happens if i land on someone", "what is a bump"),
             "If your move ends on another player's peg, that peg goes back to its Home, "
             "and your peg takes the space. Its owner needs a six to bring it out again."),
    "finish": (("do i need an exact number to finish", "how do i get into finish"),
               "After one trip around, a peg goes into your Finish line, but only with the "
               "exact number that stops it on a Finish space. Pegs in Finish are safe."),
    "win": (("how do i win", "who wins"),
            "The first player to get all four pegs into their Finish line wins."),
    "first": (("who goes first",),
              "Everyone pops once. The highest number goes first, and play passes to the left."),
    "no-move": (("what if i cannot move", "what if no peg can move"),
                "If none of your pegs can use the number, you lose that move. "
                "After a six you still get another pop."),
    "start-taken": (("what if someone is on my start",),
                    "You can still bring a peg out with a six. Their peg goes back to its Home. "
                    "But if your own peg is on your Start space, you must move it first."),
    "pass-pegs": (("can pegs block", "can i jump over pegs"),
                  "Pegs cannot block. Count every space, empty or full; "
                  "only the space where a move ends matters."),
    "laps": (("can i go around twice",),
             "No. After one trip around the track, a peg goes into its Finish line."),
    "stuck-die": (("what if the die is stuck",),
                  "If the die does not land clearly, the player who popped may tap the bubble, "
                  "but may not pop again."),
    "must-six": (("do i have to bring a peg out on a six",),
                 "No. On a six you may move a peg already on the track six spaces instead. "
                 "You must bring one out only if that is the only move."),
}


def _rule_builder(topic: str) -> Builder:
    return lambda s: Command("rule", topic=topic)


#: Commands said after the wake word. Words were chosen to sound unlike the
#: numbers one to six (no bare "no" here; "yes"/"no" live in CONFIRM only).
RULES: tuple[Rule, ...] = (
    Rule("undo", ("undo [that]", "take that back"), _simple("undo")),
    Rule("pop", ("[the] pop was <n6>", "(it was | it's | that was) a <n6>", "pop <n6>",
                 "i (rolled | popped) a <n6>"),
         lambda s: Command("pop", value=s["n6"])),
    Rule("whose-turn", ("whose turn [is it]",), _simple("whose-turn")),
    Rule("turn", ("[it's] <colors> turn", "turn to <color>"),
         lambda s: Command("turn", color=s["colors"] if "colors" in s else s["color"])),
    Rule("skip", ("skip [turn]", "pass"), _simple("skip")),
    Rule("repeat", ("repeat [that]", "say that again"), _simple("repeat")),
    Rule("status-all", ("where are the pegs", "status"), lambda s: Command("status")),
    Rule("status-mine", ("where are my pegs",), lambda s: Command("status", mine=True)),
    Rule("status-color", ("where are <colors> pegs",),
         lambda s: Command("status", color=s["colors"])),
    Rule("score", ("[what's the] score",), _simple("score")),
    Rule("new-game", ("[start a] new game",), _simple("new-game")),
    # "game" is required: British "pass" sounds like "pause" to the US model.
    Rule("pause", ("pause [the] game",), _simple("pause")),
    Rule("resume", ("resume [the] game",), _simple("resume")),
    Rule("louder", ("louder", "speak up"), _simple("louder")),
    Rule("quieter", ("quieter", "softer"), _simple("quieter")),
    Rule("quiet", ("be quiet", "mute"), _simple("quiet")),
    Rule("peg-track", ("<color> peg (on | to) space <n28>",), _peg("track")),
    Rule("peg-start", ("<color> peg (on | to) start",), _peg("start")),
    Rule("peg-home", ("<color> peg [back] home",), _peg("home")),
    Rule("peg-finish", ("<color> peg (in | to) finish <n4>",), _peg("finish")),
    Rule("help", ("help", "what can i say"), _simple("help")),
    *(Rule(f"rule-{topic}", pats, _rule_builder(topic))
      for topic, (pats, _answer) in RULE_QUESTIONS.items()),
)

#: Said with no wake word, in every context; never confirmed.
BARE_RULES: tuple[Rule, ...] = (
    Rule("stop", ("stop",), _simple("stop")),
    Rule("cancel", ("cancel",), _simple("cancel")),
)
#: A number alone: a pop correction when the referee expects one.
NUMBER_RULE = Rule("pop-bare", ("<n6>",), lambda s: Command("pop", value=s["n6"]))
CONFIRM_RULES: tuple[Rule, ...] = (
    Rule("yes", ("yes [please]", "yeah", "correct"), _simple("yes")),
    Rule("no", ("no [thanks]", "nope"), _simple("no")),
)


class Context(Enum):
    """What the listener is expecting: each context is its own grammar."""

    #: Open table talk: only "referee <command>", "stop" and "cancel".
    LIVE = "live"
    #: The referee asked "did you mean ...?": yes / no / stop / cancel.
    CONFIRM = "confirm"
    #: The referee is expecting a pop correction: a bare number, "the pop was N",
    #: or anything LIVE accepts.
    POP = "pop"
    #: Digits one to six only (the second opinion for bare numbers).
    DIGITS = "digits"
    #: Just after the wake word was heard alone: commands without it.
    AWAKE = "awake"
    #: Files and tests: everything, wake word optional.
    ANY = "any"


# --------------------------------------------------------------------------
# The pattern notation: words, [optional], (a | b), <slot>.

_TOKEN = re.compile(r"\s*(\[|\]|\(|\)|\||<[a-z0-9]+>|[a-z']+)")


def _tokens(pattern: str) -> list[str]:
    pos, out = 0, []
    pattern = pattern.strip()
    while pos < len(pattern):
        m = _TOKEN.match(pattern, pos)
        if not m:
            raise ValueError(f"bad grammar pattern {pattern!r} at {pos}")
        out.append(m.group(1))
        pos = m.end()
    return out


# An expansion is a list of (words, slots) alternatives.
Expansion = list[tuple[tuple[str, ...], dict[str, Any]]]


def _expand_seq(tokens: list[str], i: int, stop: set[str]) -> tuple[Expansion, int]:
    """Expand a sequence of alternatives up to a token in *stop*."""
    alternatives: Expansion = []
    current: Expansion = [((), {})]
    while i < len(tokens) and tokens[i] not in stop:
        tok = tokens[i]
        if tok == "|":
            alternatives += current
            current = [((), {})]
            i += 1
            continue
        if tok in ("[", "("):
            inner, i = _expand_seq(tokens, i + 1, {"]" if tok == "[" else ")"})
            i += 1  # the closing bracket
            if tok == "[":
                inner = [((), {}), *inner]
        elif tok.startswith("<"):
            name = tok[1:-1]
            inner = [(tuple(w.split()), {name: v}) for w, v in SLOTS[name].items()]
            i += 1
        else:
            inner = [((tok,), {})]
            i += 1
        current = [(w1 + w2, {**s1, **s2}) for w1, s1 in current for w2, s2 in inner]
    alternatives += current
    return alternatives, i


def expand(pattern: str) -> Expansion:
    """Every word sequence a pattern matches, with its slot values."""
    out, _ = _expand_seq(_tokens(pattern), 0, set())
    return out


def _rules_for(context: Context) -> tuple[tuple[Rule, bool], ...]:
    """(rule, needs the wake word) pairs active in *context*."""
    woken = tuple((r, True) for r in RULES)
    bare = tuple((r, False) for r in BARE_RULES)
    if context is Context.LIVE:
        return woken + bare
    if context is Context.CONFIRM:
        return tuple((r, False) for r in CONFIRM_RULES) + bare
    if context is Context.DIGITS:
        return ((NUMBER_RULE, False),)
    if context is Context.AWAKE:
        return tuple((r, False) for r in RULES) + bare
    unwoken_pop = tuple((r, False) for r in RULES if r.intent == "pop")
    if context is Context.POP:
        return woken + unwoken_pop + ((NUMBER_RULE, False),) + bare
    # ANY: the wake word is optional before everything.
    everything = RULES + (NUMBER_RULE,) + CONFIRM_RULES
    return (tuple((r, True) for r in everything) + tuple((r, False) for r in everything)
            + bare)


@cache
def phrase_table(context: Context) -> dict[str, Command]:
    """Every phrase of *context* (as text) mapped to its command."""
    table: dict[str, Command] = {}
    active = _rules_for(context)
    if any(woken for _rule, woken in active):
        table[WAKE_WORD] = Command("wake")  # the wake word alone arms the listener
    for rule, woken in active:
        for pattern in rule.patterns:
            for words, slots in expand(pattern):
                text = " ".join(((WAKE_WORD,) if woken else ()) + words)
                cmd = rule.build(slots)
                if table.get(text, cmd) != cmd:
                    raise ValueError(f"grammar is ambiguous: {text!r}")
                table[text] = cmd
    return table


def phrases(context: Context) -> list[str]:
    """The phrase list for Vosk (sorted; add ``"[unk]"`` when restricting)."""
    return sorted(phrase_table(context))


def vocabulary(context: Context = Context.ANY) -> set[str]:
    """Every word any phrase of *context* uses."""
    return {w for p in phrase_table(context) for w in p.split()}


def normalise(text: str) -> str:
    """Lower-case, drop punctuation other than apostrophes, collapse spaces."""
    return " ".join(re.sub(r"[^a-z' ]+", " ", text.lower().replace("’", "'")).split())


def parse(text: str, context: Context = Context.ANY) -> Command | None:
    """The command *text* says in *context*, or None when it is not one."""
    return phrase_table(context).get(normalise(text))


@cache
def _proper_prefixes(context: Context) -> frozenset[str]:
    return frozenset(" ".join(words[:k]) for text in phrase_table(context)
                     if len(words := text.split()) > 1 for k in range(1, len(words)))


def is_bare_number(text: str) -> bool:
    """Whether *text* is a number one to six said alone (a phrase of the
    DIGITS context): "five" is, "it's a five" and "referee five" are not.

    >>> is_bare_number("five"), is_bare_number("it was a five")
    (True, False)
    """
    return bool(text) and parse(text, Context.DIGITS) is not None


def can_continue(text: str, context: Context) -> bool:
    """Whether some longer phrase of *context* begins with the words of
    *text*: "referee undo" can still become "referee undo that", "referee
    pass" cannot grow. The listener ends a command that cannot grow sooner
    (:mod:`companion.voice.listener`)."""
    return normalise(text) in _proper_prefixes(context)


#: Intents whose phrases end in a number: a pop ("the pop was five") and a
#: peg on a numbered space ("red peg on space twelve", "... finish two").
NUMBER_INTENTS = frozenset({"pop", "peg"})


def number_alternatives(text: str, context: Context) -> tuple[str, str, tuple[str, ...]] | None:
    """For a phrase of *context* that ends in a number: (the words before it,
    the number's words, every other number that makes the same kind of
    command there). None for other phrases.

    ``number_alternatives("referee pop six", Context.LIVE)`` is
    ``("referee pop", "six", ("one", "two", "three", "four", "five"))``;
    "blue peg in finish two" gets one, three and four; "red peg on space
    twelve" the other 27 spaces. The recogniser scores the phrase against
    these rivals (:mod:`companion.voice.recognisers`).
    """
    words = normalise(text).split()
    heard = parse(" ".join(words), context)
    if heard is None or heard.intent not in NUMBER_INTENTS:
        return None
    for n in (2, 1):  # "twenty three" is two words
        if len(words) < n or " ".join(words[-n:]) not in NUMBER_WORDS:
            continue
        prefix, number = words[:-n], " ".join(words[-n:])
        rivals = []
        for word in NUMBER_WORDS:
            other = parse(" ".join([*prefix, word]), context)
            if word != number and other is not None and other.intent == heard.intent:
                rivals.append(word)
        if rivals:
            return " ".join(prefix), number, tuple(rivals)
    return None


def _jsgf_rule_name(intent: str) -> str:
    return intent.replace("-", "_")


@cache
def jsgf(context: Context) -> str:
    """The JSGF grammar of *context*, generated from the same rules."""
    text = rival_jsgf(context, None)
    assert text is not None
    return text


def _intent_of(rule: Rule) -> str:
    words, slots = expand(rule.patterns[0])[0]
    return rule.build(slots).intent


@cache
def rival_jsgf(context: Context, without: str | None) -> str | None:
    """The JSGF grammar of *context*; with *without* (an intent), the same
    grammar less every phrase of that intent and less the wake word alone:
    the best phrase of another command, for the recogniser's intent check.
    None when nothing would be left."""
    lines = ["#JSGF V1.0;", f"grammar companion_{context.value};"]
    woken: list[str] = []
    unwoken: list[str] = []
    body: dict[str, str] = {}
    for rule, wake in _rules_for(context):
        if without is not None and _intent_of(rule) == without:
            continue
        name = _jsgf_rule_name(rule.intent)
        body[name] = " | ".join(f"( {p} )" for p in rule.patterns)
        (woken if wake else unwoken).append(f"<{name}>")
    top = []
    if woken:
        lines.append("<command> = " + " | ".join(dict.fromkeys(woken)) + ";")
        top.append(f"{WAKE_WORD} [<command>]" if without is None else f"{WAKE_WORD} <command>")
    top += list(dict.fromkeys(unwoken))
    if not top:
        return None
    lines.append("public <utterance> = " + " | ".join(top) + ";")
    for name, text in body.items():
        lines.append(f"<{name}> = {text};")
    used = {m for text in body.values() for m in re.findall(r"<([a-z0-9]+)>", text)}
    for slot in sorted(used):
        words = " | ".join(SLOTS[slot])
        lines.append(f"<{slot}> = {words};")
    return "\n".join(lines) + "\n"


def iter_commands(context: Context) -> Iterator[tuple[str, Command]]:
    """(phrase, command) pairs of *context*, in a stable order."""
    table = phrase_table(context)
    for text in sorted(table):
        yield text, table[text]
