"""The printable marker sheet: the layout's markers at true size, as vectors.

Each marker is one black square of the marker's size with its white cells
drawn over it, so its printed size is exactly the layout's (and a test can
find it as a single rectangle). Letter and A4 pages, each saying which it is.
"""

from __future__ import annotations

from companion.layout import Layout
from companion.pdf import A4, LETTER, Document, Page
from companion.sim.aruco import PAPER_MARGIN_MM, marker_cells


def corner_name(layout: Layout, marker_id: int) -> str:
    """Which board corner a marker lies beside, from its position in the layout."""
    m = layout.marker(marker_id)
    cx = sum(p[0] for p in m.corners) / 4
    cy = sum(p[1] for p in m.corners) / 4
    w, h = layout.size_mm
    vert = "top" if cy < h / 3 else ("bottom" if cy > 2 * h / 3 else "middle")
    horiz = "left" if cx < w / 3 else ("right" if cx > 2 * w / 3 else "centre")
    return f"{vert}-{horiz}"


def gap_mm(layout: Layout, marker_id: int) -> tuple[float, float]:
    """How far the marker's black square lies outside the board, in x and in y."""
    m = layout.marker(marker_id)
    xs = [p[0] for p in m.corners]
    ys = [p[1] for p in m.corners]
    w, h = layout.size_mm
    return (max(0.0, -max(xs), min(xs) - w), max(0.0, -max(ys), min(ys) - h))


def marker_sheet(layout: Layout) -> Document:
    """A document with one Letter page and one A4 page of all the layout's markers."""
    doc = Document(title=f"ArUco markers for the {layout.name} board")
    for paper, size in (("US Letter", LETTER), ("A4", A4)):
        _draw_page(doc.page(*size), layout, paper)
    return doc


def _draw_page(page: Page, layout: Layout, paper: str) -> None:
    size = max(m.size_mm for m in layout.markers)
    cell = size + 2 * PAPER_MARGIN_MM
    page.text(15, 16, f"Board markers for the '{layout.name}' layout", 15, "Helvetica-Bold")
    page.text(15, 23, f"This is the {paper} page ({page.width_mm:g} x {page.height_mm:g} mm).", 10, "Helvetica-Bold")
    page.text(15, 28, "Print at 100 % ('actual size'), never 'fit to page'.", 9)
    # A 100 mm scale bar to check the printer.
    page.line(15, 35, 115, 35, width=0.5)
    for k in range(11):
        page.line(15 + 10 * k, 33.5 if k % 5 else 32.5, 15 + 10 * k, 35, width=0.3)
    page.text(118, 36, "100 mm: check with a ruler.", 8)
    cols = max(1, int((page.width_mm - 20) // (cell + 10)))
    for n, marker in enumerate(sorted(layout.markers, key=lambda m: m.id)):
        col, row = n % cols, n // cols
        x = 15 + col * (cell + 12)
        y = 42 + row * (cell + 22)
        # Cut line around the white paper margin.
        page.rect(x, y, cell, cell, fill=None, stroke=(0.45, 0.45, 0.45), line_width=0.25, dash=2.0)
        _draw_marker(page, x + PAPER_MARGIN_MM, y + PAPER_MARGIN_MM, marker.size_mm, layout.marker_dictionary, marker.id)
        page.text(x, y + cell + 5, f"marker {marker.id}: {corner_name(layout, marker.id)} corner", 9, "Helvetica-Bold")
        gx, gy = gap_mm(layout, marker.id)
        page.text(x, y + cell + 9.5, f"{marker.size_mm:g} mm square, {gx:g} / {gy:g} mm from the board", 7.5)
        page.text(x, y + cell + 13.5, layout.marker_dictionary, 7.5)
    ytext = 42 + ((len(layout.markers) + cols - 1) // cols) * (cell + 22) + 2
    lines = [
        "How to place them:",
        "1. Cut along the dashed lines, keeping the white margin around each black square.",
        "2. Lay each marker flat on the table just outside the board corner named under it, upright",
        "   (its label side towards the board's top edge: the edge with Red's and Blue's Start).",
        "3. Put the black square's inner edges the distance from the board's edges printed under it",
        "   (sideways / up-down; see calibration/README.md), and tape the paper down.",
        "4. Keep the markers in the camera's view; a hand over one is fine, the others carry the frame.",
    ]
    for i, text in enumerate(lines):
        page.text(15, ytext + 5 * i, text, 9, "Helvetica-Bold" if i == 0 else "Helvetica")


def _draw_marker(page: Page, x: float, y: float, size: float, dictionary: str, marker_id: int) -> None:
    cells = marker_cells(dictionary, marker_id)
    n = cells.shape[0]
    step = size / n
    page.rect(x, y, size, size, fill=(0, 0, 0))
    for i in range(n):
        for j in range(n):
            if not cells[i, j]:
                page.rect(x + j * step, y + i * step, step, step, fill=(1, 1, 1))
