"""tubedeck.progress: quiet for 2 s, then a line every 10 s off a terminal; only stderr."""

import io

from tubedeck import progress as progress_module
from tubedeck.progress import Progress


def test_quiet_first_then_a_line_per_interval(monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(progress_module.time, "monotonic", lambda: clock[0])
    out = io.StringIO()
    with Progress("solve dice", total=10, stream=out, tty=False) as p:
        p.update(done=1, best=12)
        assert out.getvalue() == ""  # under 2 s: nothing
        clock[0] += 3
        p.update(done=2, best=18, bound=40)
        assert out.getvalue() == "solve dice: 2/10, best 18, bound 40, 3 s\n"
        clock[0] += 5
        p.update(done=3)
        assert p.lines == 1  # 5 s since the last line: still one
        clock[0] += 6
        p.update(done=4, best=41)
    assert p.lines == 2
    assert out.getvalue().splitlines()[-1] == "solve dice: 4/10, best 41, bound 40, 14 s"


def test_no_total_counts_nothing_until_told():
    p = Progress("check", stream=io.StringIO(), tty=False)
    assert p.text().startswith("0 s") or p.text().endswith(" s")
    p.update(advance=2, positions=12345)
    assert p.text().startswith("2, positions 12,345")
