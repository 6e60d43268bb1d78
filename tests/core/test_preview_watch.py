"""The designer's loop: ``build GAME --watch`` and ``tubedeck preview GAME``.

1. the preview serves the build folder on 127.0.0.1 and nothing outside it: ``..``, encoded dots
   and slashes, absolute paths, hidden files, NUL bytes and links out are 404; only GET and HEAD;
   its state changes with a rebuild; a busy port is a clear message;
2. the watch builds once, then after each change (no timing: its clock and sleep are the test's);
3. ``build GAME --watch`` watches the dataset, the game's data folder and the files options name;
4. in a real browser (headless Chromium, skipped where it is absent) the page lists the PDFs.
"""

from __future__ import annotations

import http.client
import os
import shutil
import socket
import subprocess

import pytest

from tubedeck.errors import UsageError
from tubedeck.preview import inside, serve_in_thread, server, state
from tubedeck.watch import changes, snapshot, watch

from conftest import run_cli


@pytest.fixture
def site(tmp_path):
    folder = tmp_path / "out" / "klm"
    (folder / "png").mkdir(parents=True)
    (folder / "stations.pdf").write_bytes(b"%PDF-1.4 stations")
    (folder / "stations-contact.png").write_bytes(b"\x89PNG contact")
    (folder / ".hidden").write_text("no")
    (tmp_path / "secret.txt").write_text("outside")
    os.symlink(tmp_path / "secret.txt", folder / "link.txt")
    srv = server(folder, "Keep London Moving", 0)
    serve_in_thread(srv)
    yield folder, srv.server_address[1]
    srv.shutdown()
    srv.server_close()


def get(port: int, path: str, method: str = "GET") -> tuple[int, bytes, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.putrequest(method, path, skip_accept_encoding=True)
    conn.endheaders()
    r = conn.getresponse()
    body = r.read()
    conn.close()
    return r.status, body, dict(r.getheaders())


def test_the_page_lists_pdfs_and_shows_contact_sheets(site):
    folder, port = site
    status, body, headers = get(port, "/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert b'href="/stations.pdf"' in body and b'src="/stations-contact.png"' in body
    status, body, headers = get(port, "/stations.pdf")
    assert status == 200 and body == b"%PDF-1.4 stations" and headers["Content-Type"] == "application/pdf"
    assert get(port, "/stations.pdf", "HEAD")[0] == 200


@pytest.mark.parametrize("path", [
    "/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt", "/png/../../secret.txt", "//etc/passwd",
    "/%2fetc%2fpasswd", "/.hidden", "/link.txt", "/stations.pdf%00.png", "/..%5csecret.txt", "/nothing.pdf",
    "/png",
])
def test_nothing_outside_the_folder_is_served(site, path):
    _, port = site
    status, body, _ = get(port, path)
    assert status == 404 and b"outside" not in body


def test_inside_is_the_only_gate(tmp_path):
    (tmp_path / "a.pdf").write_text("x")
    assert inside(tmp_path, "/a.pdf") == (tmp_path / "a.pdf").resolve()
    assert inside(tmp_path, "/a.pdf?x=1#y") == (tmp_path / "a.pdf").resolve()
    assert inside(tmp_path, str(tmp_path / "a.pdf")) is None  # an absolute path is not a way in


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
def test_only_get_and_head(site, method):
    folder, port = site
    before = sorted(p.name for p in folder.iterdir())
    status, _, headers = get(port, "/stations.pdf", method)
    assert status == 405 and headers["Allow"] == "GET, HEAD"
    assert sorted(p.name for p in folder.iterdir()) == before


def test_the_state_changes_with_a_rebuild(site):
    folder, port = site
    first = get(port, "/.state")[1].decode()
    assert first == state(folder)
    (folder / "stations.pdf").write_bytes(b"%PDF-1.4 stations, rebuilt")
    assert get(port, "/.state")[1].decode() != first


def test_a_busy_port_is_a_clear_message(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        with pytest.raises(UsageError, match=f"--port {port}: cannot listen"):
            server(tmp_path, "x", port)
    with pytest.raises(UsageError, match="--port"):
        server(tmp_path, "x", 70000)


def test_the_preview_command_refuses_an_unknown_game(capsys):
    code, _, err = run_cli(capsys, "preview", "chess", "--port", "0")
    assert code == 2 and "no game 'chess'" in err


# -- 2. the watch ---------------------------------------------------------------------------------------
def test_watch_builds_once_then_after_each_change(tmp_path):
    rules = tmp_path / "rules.toml"
    rules.write_text("a = 1")
    builds, lines = [], []
    edits = iter([None, "a = 2", None, "a = 3"])

    def sleep(_seconds: float) -> None:  # the test's clock: an edit between some looks
        text = next(edits)
        if text is not None:
            rules.write_text(text)
            os.utime(rules, ns=(len(builds) * 10**9 + 10**12, len(builds) * 10**9 + 10**12))

    def build() -> int:
        builds.append(rules.read_text())
        return 0 if len(builds) != 2 else 2

    ticks = iter(range(100))
    watch([tmp_path], build, say=lines.append, sleep=sleep, clock=lambda: float(next(ticks)), rounds=4)
    assert builds == ["a = 1", "a = 2", "a = 3"]
    assert lines[0] == "first build: built in 1.0 s" and lines[1].startswith("watching 1 files")
    assert lines[2] == "changed rules.toml: build failed (exit 2) in 1.0 s"
    assert lines[3] == "changed rules.toml: built in 1.0 s"


def test_snapshot_sees_added_removed_and_changed_files(tmp_path):
    (tmp_path / "a.csv").write_text("1")
    before = snapshot([tmp_path])
    (tmp_path / "b.csv").write_text("2")
    (tmp_path / "a.csv").write_text("11")
    assert changes(before, snapshot([tmp_path])) == [str(tmp_path / "a.csv"), str(tmp_path / "b.csv")]
    (tmp_path / "b.csv").unlink()
    assert changes(before, snapshot([tmp_path])) == [str(tmp_path / "a.csv")]


def test_build_watch_watches_the_data_the_game_reads(monkeypatch, capsys, tmp_path):
    import tubedeck.watch as watching
    from tubedeck.content import data_root

    seen = {}
    monkeypatch.setattr(watching, "watch", lambda paths, build, **kw: seen.update(paths=paths, build=build))
    recipe = tmp_path / "recipe.toml"
    recipe.write_text((data_root() / "oneday" / "recipe.toml").read_text())
    code, _, err = run_cli(capsys, "build", "oneday", "--watch", "--recipe", str(recipe), "--data", "london")
    assert code == 0, err
    assert seen["paths"] == [data_root(), data_root() / "oneday", recipe]
    code, _, err = run_cli(capsys, "build", "oneday", "--watch", "--paper", "a3")
    assert code == 2 and "paper" in err  # options are checked before the first build


# -- 4. a real browser --------------------------------------------------------------------------------
def test_in_a_real_browser(site):
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if browser is None:
        pytest.skip("no Chromium on this machine (Debian: apt-get install chromium); the page is tested over HTTP above")
    _, port = site
    done = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
                           f"http://127.0.0.1:{port}/"], capture_output=True, text=True, timeout=120)
    assert "stations.pdf" in done.stdout and "Reloads after each rebuild" in done.stdout
