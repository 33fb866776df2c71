"""The printable score sheet for a Trouble match (``companion score --sheet``).

Trouble has no points: the rule texts say to mark the winner of each game on
a score sheet and add up the games at the end. The sheet is one page: a row
per game, a column per player (headed by the player's colour), the games
already recorded filled in (an X for the winner, the place for the others),
blank rows for games still to play, and a totals row with room for a tally.
Drawn with :mod:`companion.pdf` at true size on Letter or A4.
"""

from __future__ import annotations

from pathlib import Path

from companion.errors import UserError
from companion.pdf import A4, LETTER, Document, Page
from companion.store.score import ScoreTable

COLOUR_RGB = {
    "red": (0.85, 0.15, 0.15),
    "blue": (0.15, 0.35, 0.85),
    "yellow": (0.95, 0.8, 0.1),
    "green": (0.1, 0.6, 0.25),
}
_PLACE = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}
_GREY = (0.45, 0.45, 0.45)


def _tint(rgb: tuple[float, float, float], amount: float = 0.8) -> tuple[float, float, float]:
    r, g, b = rgb
    return (r + (1 - r) * amount, g + (1 - g) * amount, b + (1 - b) * amount)


def _header(page: Page, x: float, y: float, w: float, h: float, player: str) -> None:
    colours = player.split("+")
    swatch = h * 0.45
    for i, c in enumerate(colours):
        page.rect(x + 3 + i * (swatch + 1.5), y + (h - swatch) / 2, swatch, swatch, fill=COLOUR_RGB.get(c, _GREY), stroke=(0, 0, 0), line_width=0.2)
    label = " + ".join(c.capitalize() for c in colours)
    page.text(x + 5 + len(colours) * (swatch + 1.5), y + h / 2 + 1.6, label, size_pt=11, font="Helvetica-Bold")


def draw_score_sheet(table: ScoreTable, rows: int = 12, paper: str = "letter") -> Document:
    """The score sheet as a PDF document (not yet written)."""
    if paper not in ("letter", "a4"):
        raise UserError(f"paper must be letter or a4, not {paper!r}")
    width, height = LETTER if paper == "letter" else A4
    players = list(table.players) or ["red", "blue", "yellow", "green"]
    rows = max(rows, len(table.games))
    doc = Document(title="Trouble score sheet")
    page = doc.page(width, height)
    margin = 18.0
    page.text(margin, margin + 6, "Trouble - match score sheet", size_pt=22, font="Helvetica-Bold")
    page.text(
        margin,
        margin + 14,
        "Trouble has no points. Mark the winner of each game with an X; add up the games at the end.",
        size_pt=9.5,
        color=_GREY,
    )
    page.text(margin, margin + 20, f"Match {table.match_id}    Date: ______________", size_pt=10)

    top = margin + 28
    game_w = 18.0
    notes_w = 34.0
    inner = width - 2 * margin
    col_w = (inner - game_w - notes_w) / len(players)
    head_h = 11.0
    avail = height - top - margin - head_h - 2 * 12.0 - 8
    row_h = min(11.0, avail / rows)

    x0 = margin
    page.rect(x0, top, inner, head_h, fill=(0.92, 0.92, 0.92), stroke=(0, 0, 0), line_width=0.3)
    page.text(x0 + 3, top + head_h / 2 + 1.6, "Game", size_pt=11, font="Helvetica-Bold")
    for i, p in enumerate(players):
        _header(page, x0 + game_w + i * col_w, top, col_w, head_h, p)
    page.text(x0 + game_w + len(players) * col_w + 3, top + head_h / 2 + 1.6, "Notes", size_pt=11, font="Helvetica-Bold")

    y = top + head_h
    for r in range(rows):
        page.rect(x0, y, inner, row_h, fill=None, stroke=(0, 0, 0), line_width=0.2)
        page.text(x0 + 3, y + row_h / 2 + 1.5, str(r + 1), size_pt=10)
        if r < len(table.games):
            _, winner, places = table.games[r]
            for i, p in enumerate(players):
                cx = x0 + game_w + i * col_w
                if p == winner:
                    colour = COLOUR_RGB.get(p.split("+")[0], _GREY)
                    page.rect(cx + 0.4, y + 0.4, col_w - 0.8, row_h - 0.8, fill=_tint(colour))
                    page.text(cx + col_w / 2 - 2, y + row_h / 2 + 2, "X", size_pt=14, font="Helvetica-Bold")
                elif p in places:
                    page.text(cx + col_w / 2 - 3, y + row_h / 2 + 1.5, _PLACE.get(places.index(p) + 1, ""), size_pt=9, color=_GREY)
        y += row_h
    for label, filled in (("Total", True), ("Tally", False)):
        page.rect(x0, y, inner, 12.0, fill=(0.96, 0.96, 0.96), stroke=(0, 0, 0), line_width=0.4)
        page.text(x0 + 3, y + 7.5, label, size_pt=11, font="Helvetica-Bold")
        if filled and table.games:
            for i, p in enumerate(players):
                page.text(x0 + game_w + i * col_w + col_w / 2 - 2, y + 7.8, str(table.wins(p)), size_pt=13, font="Helvetica-Bold")
        y += 12.0
    for i in range(len(players) + 1):
        x = x0 + game_w + i * col_w
        page.line(x, top, x, y, width=0.3)
    page.text(margin, y + 7, "Printed by companion (companion score --sheet).", size_pt=8, color=_GREY)
    return doc


def write_score_sheet(path: Path, table: ScoreTable, rows: int = 12, paper: str = "letter") -> None:
    """Write the sheet; a folder that does not exist is the user's to fix."""
    if not path.parent.exists():
        raise UserError(f"cannot write {path}: the folder {path.parent} does not exist")
    try:
        draw_score_sheet(table, rows, paper).save(path)
    except OSError as exc:
        raise UserError(f"cannot write {path}: {exc.strerror}") from exc
