"""The embedded demo: a rendered game through vision, the loop and voice."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

pytest.importorskip("cv2")


@pytest.mark.slow
def test_demo_shows_every_required_moment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tempfile

    from companion.live.demo import run_demo

    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    out = io.StringIO()
    result = run_demo(3, out=out, speech_dir=tmp_path / "speech")
    # The player's synthesised words are not left behind (each run used to
    # leave a folder; the recogniser's dictionary folder goes at exit).
    assert list(scratch.glob("companion-demo-*")) == []
    text = out.getvalue()
    kinds = [e["event"] for e in result.events]
    # Who goes first, a 6 followed by another pop, a bump, an illegal move put right, a win.
    assert "Who goes first?" in text and "goes first with" in text
    six = next(i for i, e in enumerate(result.events) if e["event"] == "pop" and e["value"] == 6)
    assert kinds[six + 1 : six + 4] == ["move", "extra-pop", "pop"]
    assert "bump" in kinds
    illegal = kinds.index("illegal")
    assert result.events[illegal]["reason"] == "wrong-count" and kinds[illegal + 1] == "move"
    assert kinds[-1] == "game-over" and "*** Game over: Red wins." in text
    # The spoken protest went through the listener and the camera contradicted it.
    assert 'Blue says "referee, the pop was five"' in text and "value': 5" in text
    assert "I saw a 4 on the die. Say it again if you are sure." in text
    assert "does not match" not in text and "error" not in text.lower()
    # Every announcement was also written as audio.
    wavs = sorted((tmp_path / "speech").glob("*.wav"))
    assert len(wavs) >= len([e for e in result.events if e.get("text")])
    assert all(w.stat().st_size > 1000 for w in wavs)


@pytest.mark.slow
def test_a_demo_scene_whose_pop_the_camera_cannot_read_is_answered_by_the_player() -> None:
    # Seed 102's light: Blue's who-goes-first pop is seen but not read. The
    # loop asks; before session 8 nobody answered and the demo stopped there.
    # (Seed 19's Red pop, used here until session 16, is now read: a 2; seeds
    # 0-110 searched for another who-goes-first pop left unread.)
    from companion.live.demo import run_demo

    out = io.StringIO()
    result = run_demo(102, out=out)
    text = out.getvalue()
    assert "I could not read Blue's pop. Blue, say the number you popped." in text
    assert 'Blue says "referee, the pop was four"' in text and "value': 4" in text
    assert "Blue goes first with 4." in text
    assert result.events[-1]["event"] == "game-over" and "*** Game over: Red wins." in text
