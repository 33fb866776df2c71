"""The match score: games won by each player, the scorekeeper of the rule texts.

Trouble has no points; a match is a run of games and the score is how many
each player won. A player is named by their colour (``red``), or by both
colours when one person plays two (``red+yellow``).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.store.record import GameStore, player_name

_CLOCKWISE = ("red", "blue", "yellow", "green")


@dataclass(frozen=True)
class ScoreTable:
    """The tally of one match: its finished games in order, and wins per player."""

    match_id: int
    players: tuple[str, ...]
    #: (game id, winner, players in finishing order) per finished game.
    games: tuple[tuple[int, str, tuple[str, ...]], ...]
    unfinished: int

    def wins(self, player: str) -> int:
        return sum(1 for _, winner, _ in self.games if winner == player)

    @property
    def leaders(self) -> tuple[str, ...]:
        """The players with the most wins (empty before the first game ends)."""
        if not self.games:
            return ()
        best = max(self.wins(p) for p in self.players)
        return tuple(p for p in self.players if self.wins(p) == best)

    def sentence(self) -> str:
        """The score as a person at the table would say it."""
        if not self.games:
            return "No game of this match has been won yet."
        parts = [f"{p.replace('+', ' and ').capitalize()} {self.wins(p)}" for p in self.players]
        n = len(self.games)
        return f"After {n} game{'s' if n != 1 else ''}: " + ", ".join(parts) + "."

    def text(self) -> str:
        """The table printed by ``companion score``."""
        lines = [f"Match {self.match_id}: {len(self.games)} game(s) finished"]
        if self.unfinished:
            lines[0] += f", {self.unfinished} unfinished"
        if not self.players:
            lines.append("No games recorded yet.")
            return "\n".join(lines)
        width = max(6, *(len(p) for p in self.players))
        header = f"{'player':<{width}}  " + " ".join(f"{i + 1:>3}" for i in range(len(self.games)))
        lines.append(header + "  total")
        for p in self.players:
            marks = " ".join(f"{'X' if w == p else '.':>3}" for _, w, _ in self.games)
            lines.append(f"{p:<{width}}  {marks}  {self.wins(p):>5}")
        return "\n".join(lines)


def _player_order(name: str) -> tuple[int, str]:
    first = name.split("+")[0]
    return (_CLOCKWISE.index(first) if first in _CLOCKWISE else len(_CLOCKWISE), name)


def score_table(store: GameStore, match_id: int | None = None) -> ScoreTable:
    """The score of a match (the open one unless *match_id* is given)."""
    mid = store.current_match() if match_id is None else match_id
    players: set[str] = set()
    games: list[tuple[int, str, tuple[str, ...]]] = []
    unfinished = 0
    for row in store.games(mid):
        if row.status == "finished" and row.places:
            players.update(player_name(p) for p in row.players)
            games.append((row.id, row.places[0], row.places))
        elif row.status == "playing":
            unfinished += 1
    return ScoreTable(
        match_id=mid,
        players=tuple(sorted(players, key=_player_order)),
        games=tuple(games),
        unfinished=unfinished,
    )
