"""The one grammar: its phrases, the JSGF it generates and the parser agree."""

from __future__ import annotations

import re

import pytest

from companion.voice import grammar
from companion.voice.grammar import Command, Context, parse


def _jsgf_language(text: str) -> set[str]:
    """Every sentence a generated JSGF grammar accepts, expanded by a small
    JSGF reader written independently of companion.voice.grammar."""
    rules: dict[str, str] = {}
    public = ""
    for line in text.splitlines():
        m = re.match(r"(public\s+)?<([a-z0-9_]+)>\s*=\s*(.*);$", line.strip())
        if m:
            rules[m.group(2)] = m.group(3)
            if m.group(1):
                public = m.group(2)

    def expand(expr: str) -> set[tuple[str, ...]]:
        tokens = re.findall(r"<[a-z0-9_]+>|[\[\]()|]|[a-z']+", expr)
        pos = 0

        def alts() -> set[tuple[str, ...]]:
            nonlocal pos
            out: set[tuple[str, ...]] = set()
            seq: set[tuple[str, ...]] = {()}
            while pos < len(tokens) and tokens[pos] not in ")]":
                t = tokens[pos]
                pos += 1
                if t == "|":
                    out |= seq
                    seq = {()}
                    continue
                if t in "([":
                    inner = alts()
                    pos += 1
                    if t == "[":
                        inner = inner | {()}
                elif t.startswith("<"):
                    inner = expand(rules[t[1:-1]])
                else:
                    inner = {(t,)}
                seq = {a + b for a in seq for b in inner}
            return out | seq

        return alts()

    return {" ".join(words) for words in expand(rules[public])}


@pytest.mark.parametrize("context", list(Context))
def test_jsgf_accepts_exactly_the_phrase_list(context: Context) -> None:
    assert _jsgf_language(grammar.jsgf(context)) == set(grammar.phrases(context))


@pytest.mark.parametrize("context", list(Context))
def test_pocketsphinx_compiles_the_grammar_and_accepts_every_phrase(context: Context) -> None:
    from pocketsphinx import Decoder

    decoder = Decoder(logfn="/dev/null")
    for word, phones in grammar.EXTRA_PRONUNCIATIONS.items():
        decoder.add_word(word, phones, False)
    fsg = decoder.parse_jsgf(grammar.jsgf(context))
    rejected = [p for p in grammar.phrases(context) if not fsg.accept(p)]
    assert rejected == []
    assert not fsg.accept("referee pass the salt")


def test_every_word_has_a_pronunciation() -> None:
    from pocketsphinx import Decoder

    decoder = Decoder(logfn="/dev/null")
    missing = {w for w in grammar.vocabulary()
               if decoder.lookup_word(w) is None and w not in grammar.EXTRA_PRONUNCIATIONS}
    assert missing == set()


def test_every_phrase_parses_to_its_command_in_its_context() -> None:
    for context in Context:
        for phrase, command in grammar.iter_commands(context):
            assert parse(phrase, context) == command
            assert parse(phrase.upper() + "!", context) == command  # normalised


EXPECTED = {
    "referee undo": Command("undo"),
    "referee the pop was five": Command("pop", value=5),
    "referee it's a six": Command("pop", value=6),
    "three": Command("pop", value=3),
    "referee whose turn is it": Command("whose-turn"),
    "referee it's blue's turn": Command("turn", color="blue"),
    "referee turn to yellow": Command("turn", color="yellow"),
    "referee skip": Command("skip"),
    "referee pass": Command("skip"),
    "referee say that again": Command("repeat"),
    "referee where are the pegs": Command("status"),
    "referee where are my pegs": Command("status", mine=True),
    "referee where are green's pegs": Command("status", color="green"),
    "referee what's the score": Command("score"),
    "referee new game": Command("new-game"),
    "referee pause the game": Command("pause"),
    "referee resume game": Command("resume"),
    "referee louder": Command("louder"),
    "referee quieter": Command("quieter"),
    "referee be quiet": Command("quiet"),
    "referee red peg on space twelve": Command("peg", color="red", place="track:12"),
    "referee green peg to space twenty eight": Command("peg", color="green", place="track:28"),
    "referee blue peg on start": Command("peg", color="blue", place="track:8"),
    "referee red peg home": Command("peg", color="red", place="home"),
    "referee blue peg in finish two": Command("peg", color="blue", place="finish:2"),
    "yes": Command("yes"),
    "no thanks": Command("no"),
    "referee help": Command("help"),
    "stop": Command("stop"),
    "cancel": Command("cancel"),
    "referee can i land on my own peg": Command("rule", topic="own-peg"),
    "referee": Command("wake"),
}


@pytest.mark.parametrize("phrase", sorted(EXPECTED))
def test_phrases_mean_what_players_mean(phrase: str) -> None:
    assert parse(phrase) == EXPECTED[phrase]


def test_contexts_limit_what_is_heard() -> None:
    assert parse("undo", Context.LIVE) is None  # needs the wake word
    assert parse("referee undo", Context.LIVE) == Command("undo")
    assert parse("stop", Context.LIVE) == Command("stop")
    assert parse("five", Context.LIVE) is None
    assert parse("five", Context.POP) == Command("pop", value=5)
    assert parse("the pop was two", Context.POP) == Command("pop", value=2)
    assert parse("yes", Context.LIVE) is None
    assert parse("yes please", Context.CONFIRM) == Command("yes")
    assert parse("referee undo", Context.CONFIRM) is None
    assert parse("undo", Context.AWAKE) == Command("undo")
    assert set(grammar.phrases(Context.DIGITS)) == {"one", "two", "three", "four", "five", "six"}
    assert parse("pass the salt please") is None
    assert parse("") is None


def test_numbers_outside_their_range_are_not_phrases() -> None:
    assert parse("referee pop seven") is None
    assert parse("referee red peg in finish five") is None
    assert parse("referee red peg on space twenty nine") is None


def test_commands_serialise_for_listen_and_for_the_referee() -> None:
    pop = Command("pop", value=5)
    assert pop.as_dict() == {"intent": "pop", "value": 5}
    assert pop.referee_command() == {"command": "pop", "value": 5}
    peg = Command("peg", color="red", place="track:12")
    assert peg.referee_command() == {"command": "peg", "color": "red", "place": "track:12"}
    assert Command("undo").referee_command() == {"command": "undo"}


def test_rule_answers_exist_for_every_topic() -> None:
    for topic, (questions, answer) in grammar.RULE_QUESTIONS.items():
        assert questions and len(answer) > 20, topic
        assert parse(f"referee {questions[0]}") == Command("rule", topic=topic)


def test_variant_pronunciations_join_the_dictionarys_own() -> None:
    from companion.voice.recognisers import grammar_dictionary

    entries: dict[str, list[str]] = {}
    for line in grammar_dictionary().read_text(encoding="utf-8").splitlines():
        head, phones = line.split(" ", 1)
        entries.setdefault(head.split("(", 1)[0], []).append(phones)
    for word, variants in grammar.VARIANT_PRONUNCIATIONS.items():
        assert word in grammar.vocabulary()
        assert len(entries[word]) > len(variants)  # the dictionary's own stays
        assert set(variants) <= set(entries[word])
    # every entry's name is unique (a repeated "word(2)" would shadow another)
    heads = [line.split(" ", 1)[0] for line in
             grammar_dictionary().read_text(encoding="utf-8").splitlines()]
    assert len(heads) == len(set(heads))
