"""``companion markers``: write the printable ArUco marker sheet (PDF)."""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.errors import UserError


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", required=True, type=Path, help="the PDF file to write (e.g. markers.pdf)")
    parser.add_argument("--layout", type=Path, default=None, help="a layout file (default: calibration/classic.json)")


def run(args: argparse.Namespace) -> int:
    from companion.layout import load_layout
    from companion.sim.marker_sheet import marker_sheet

    layout = load_layout(args.layout)
    out: Path = args.out
    if out.suffix.lower() != ".pdf":
        raise UserError(f"--out {out}: the marker sheet is a PDF; name it something.pdf")
    try:
        marker_sheet(layout).save(out)
    except OSError as exc:
        raise UserError(f"cannot write {out}: {exc.strerror}") from None
    sizes = ", ".join(f"{m.id}: {m.size_mm:g} mm" for m in layout.markers)
    print(f"wrote {out}: a US Letter page and an A4 page of the {layout.name} markers ({sizes}); print at 100 %")
    return 0
