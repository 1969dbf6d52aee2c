#!/usr/bin/env python3
"""Drives `pbrain-rensa serve`'s page in a real browser (Debian's chromium through
chromedriver's WebDriver protocol; Python standard library only): plays a move and sees the
engine answer, analyses and sees live lines, shows a line on the board, undoes, sees a renju
forbidden point, loads a record with its winning line, saves, and keeps a screenshot.

    python3 tests/browser/drive.py --engine target/debug/pbrain-rensa --out target/browser

Exits non-zero, naming the step, when anything is not as it should be. Prints the figures the
issue asks for: click to the engine's reply on the page beyond its think time, and the longest
gap between the page's updates during analysis.
"""
import argparse, base64, json, os, shutil, socket, struct, subprocess, sys, time, urllib.request, zlib

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Driver:
    def __init__(self, port, binary):
        self.base = f"http://127.0.0.1:{port}"
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
            "binary": binary,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,900"]}}}}
        self.sid = self.call("POST", "/session", caps)["sessionId"]

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=60) as r:
            return json.loads(r.read() or b"{}").get("value", {})

    def s(self, method, path, body=None):
        return self.call(method, f"/session/{self.sid}{path}", body)

    def js(self, script, *args):
        return self.s("POST", "/execute/sync", {"script": script, "args": list(args)})

    def find(self, css):
        return self.s("POST", "/element", {"using": "css selector", "value": css})[ELEMENT]

    def click(self, css):
        self.s("POST", f"/element/{self.find(css)}/click", {})

    def wait(self, what, script, timeout=20.0):
        end = time.time() + timeout
        while time.time() < end:
            v = self.js(script)
            if v:
                return v
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {what}")

    def quit(self):
        try:
            self.s("DELETE", "")
        except Exception:
            pass


def place(d, cells):
    """Clicks each cell in turn, waiting for its stone (and no more: the last click may be
    answered by the engine, which the caller waits for)."""
    for x, y in cells:
        n = d.js("return document.querySelectorAll('[data-stone]').length")
        d.click(f'[data-cell="{x},{y}"]')
        d.wait(f"the stone on {x},{y}", f"return document.querySelectorAll('[data-stone]').length >= {n + 1}")


def png_colours(png):
    """Distinct pixel values of an 8-bit RGB(A) PNG's first rows (enough to tell a drawn board
    from a blank page), read with zlib alone."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w, h, ctype = 8, b"", 0, 0, 0
    while pos < len(png):
        n, kind = struct.unpack(">I4s", png[pos:pos + 8])
        body = png[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, _, ctype = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = 4 if ctype == 6 else 3
    raw = zlib.decompress(idat)
    stride = w * bpp + 1
    colours = set()
    for row in range(0, h, max(1, h // 60)):
        line = raw[row * stride + 1:(row + 1) * stride]
        # filter bytes make these deltas rather than colours for most rows: distinct values of
        # either kind still count what varies
        for i in range(0, len(line) - bpp, bpp * 7):
            colours.add(line[i:i + bpp])
    return w, h, len(colours)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", required=True)
    ap.add_argument("--out", default="target/browser")
    ap.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    ap.add_argument("--chromedriver", default=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))
    record = os.path.join(here, "..", "data", "records", "gomocup-rensa-rapfi.psq")
    server = subprocess.Popen([a.engine, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
    dport = free_port()
    driver_proc = subprocess.Popen([a.chromedriver, f"--port={dport}"], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
    d = None
    step = "start"
    try:
        line = server.stdout.readline()
        url = line.split()[2]
        assert url.startswith("http://127.0.0.1:"), line
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{dport}/status", timeout=2)
                break
            except OSError:
                time.sleep(0.1)
        d = Driver(dport, a.chromium)
        step = "open the page"
        d.s("POST", "/url", {"url": url})
        d.wait("the board", "return document.querySelectorAll('[data-cell]').length === 225")
        d.wait("black to move", "return document.getElementById('status').textContent.startsWith('black to move')")

        assert d.js("return getComputedStyle(document.getElementById('choice')).display") == "none", \
            "the Swap2 choices show before any Swap2"

        step = "play a move and see the engine answer"
        d.js("document.getElementById('time').value = '300'")
        d.js("""window.__seen = null; new MutationObserver((m, o) => {
                  if (document.querySelector('[data-stone=white]')) { window.__seen = performance.now(); o.disconnect(); }
                }).observe(document.getElementById('board'), {childList: true, subtree: true});""")
        d.js("window.__click = performance.now(); document.querySelector('[data-cell=\"7,7\"]').click()")
        d.wait("the engine's stone", "return window.__seen !== null")
        assert d.js("return document.querySelector('[data-cell=\"7,7\"] [data-stone=black]') !== null")
        wait_ms = d.js("return window.__seen - window.__click")
        think_ms = d.js("return Number(document.getElementById('eval').dataset.elapsed)")
        overhead = wait_ms - think_ms
        print(f"click to reply: {wait_ms:.0f} ms, of which the search {think_ms:.0f} ms: {overhead:.0f} ms beyond")
        assert overhead < 250, f"{overhead:.0f} ms beyond the search"

        step = "analyse: live lines"
        d.js("document.getElementById('you').value = 'none'")
        d.js("""window.__updates = []; new MutationObserver(() => window.__updates.push(performance.now()))
                  .observe(document.getElementById('status'), {childList: true, subtree: true, characterData: true});""")
        d.click("#analyze")
        d.wait("an analysis line", "return document.querySelectorAll('#lines li.line').length > 0")
        time.sleep(2.0)
        gaps = d.js("""const u = window.__updates; let g = 0;
                       for (let i = 1; i < u.length; i++) g = Math.max(g, u[i] - u[i - 1]); return [u.length, g];""")
        print(f"analysis: {gaps[0]} updates in about 2 s, longest gap {gaps[1]:.0f} ms")
        assert gaps[0] >= 6 and gaps[1] < 400, gaps
        lines = d.js("return document.querySelectorAll('#lines li.line').length")
        assert lines >= 2, f"{lines} lines with 3 asked"
        assert d.js("return document.querySelectorAll('.mark[data-mark]').length") >= 1

        step = "a line shown on the board on hover"
        d.js("document.querySelector('#lines li.line').dispatchEvent(new MouseEvent('mouseenter'))")
        assert d.js("return document.querySelectorAll('.ghost').length") >= 1
        d.js("document.querySelector('#lines li.line').dispatchEvent(new MouseEvent('mouseleave'))")

        step = "stop the analysis"
        d.click("#analyze")
        d.wait("the analysis to stop", "return document.getElementById('status').dataset.state === 'idle'")

        step = "undo and redo"
        d.click("#undo")
        d.wait("one stone", "return document.querySelectorAll('[data-stone]').length === 1")
        d.click("#redo")
        d.wait("two stones", "return document.querySelectorAll('[data-stone]').length === 2")

        step = "a rectangular board: 9 columns, 7 rows, the engine answers"
        d.js("document.getElementById('width').value = '9'; document.getElementById('height').value = '7';"
             "document.getElementById('you').value = 'black'")
        d.click("#new")
        d.wait("63 cells", "return document.querySelectorAll('[data-cell]').length === 63")
        d.click('[data-cell="4,3"]')
        d.wait("the engine's answer", "return document.querySelectorAll('[data-stone=white]').length === 1")
        d.js("document.getElementById('width').value = '15'; document.getElementById('height').value = '15';"
             "document.getElementById('you').value = 'none'")

        step = "a renju forbidden point"
        d.js("document.getElementById('rule').value = 'renju'")
        d.click("#new")
        d.wait("an empty board", "return document.querySelectorAll('[data-stone]').length === 0")
        place(d, [(7, 7), (0, 0), (8, 7), (0, 2), (9, 8), (0, 4), (9, 9), (14, 14)])
        d.wait("j8 forbidden", "return document.querySelector('[data-cell=\"9,7\"] [data-forbidden]') !== null")
        d.click('[data-cell="9,7"]')
        time.sleep(0.3)
        assert d.js("return document.querySelector('[data-cell=\"9,7\"] [data-stone]') === null"), "black played a foul"

        step = "load a record and see its winning line"
        d.s("POST", f"/element/{d.find('#load')}/value", {"text": os.path.abspath(record)})
        d.wait("32 stones", "return document.querySelectorAll('[data-stone]').length === 32")
        d.wait("the winning line", "return document.querySelectorAll('.cell.win').length === 5")
        status = d.js("return document.getElementById('status').textContent")
        assert "white wins" in status, status

        step = "the loaded game's graph: a point per move, a click goes there"
        d.wait("the graph", "return document.querySelectorAll('#graph circle[data-ply]').length === 32")
        d.js("document.querySelector('#graph circle[data-ply=\"10\"]').dispatchEvent(new MouseEvent('click'))")
        d.wait("move 10", "return document.querySelectorAll('[data-stone]').length === 10")
        d.click("#redo")
        d.wait("move 11", "return document.querySelectorAll('[data-stone]').length === 11")

        step = "Swap2: Rensa opens, you choose black, Rensa answers as white"
        d.js("document.getElementById('rule').value = 'freestyle'; document.getElementById('opening').value = 'swap2-rensa';"
             "document.getElementById('time').value = '200'")
        d.click("#new")
        d.wait("Rensa's three stones", "return document.querySelectorAll('[data-stone]').length === 3"
               " && getComputedStyle(document.getElementById('choice')).display !== 'none'")
        d.click("#take-black")
        d.wait("Rensa's white move", "return document.querySelectorAll('[data-stone]').length === 4")
        assert d.js("return document.getElementById('you').value") == "black"

        step = "Swap2: you open, Rensa chooses"
        d.js("document.getElementById('opening').value = 'swap2-you'")
        d.click("#new")
        place(d, [(7, 7), (8, 8), (6, 8)])
        d.wait("Rensa's choice", "return document.getElementById('status').dataset.state === 'idle'"
               " && (document.querySelectorAll('[data-stone]').length === 4"
               " || document.querySelectorAll('[data-stone]').length === 5"
               " || document.getElementById('you').value === 'white')")
        print("swap2 after three stones:", d.js("return document.getElementById('eval').textContent"
                                               " || document.getElementById('choice-text').textContent"))

        step = "save the game"
        text = d.js("return fetch('/api/save', {method: 'POST', body: JSON.stringify("
                    "{page: 'x', width: 15, height: 15, moves: [[7,7],[8,8]], format: 'sgf'})})"
                    ".then(r => r.json()).then(j => j.text)")
        assert text.startswith("(;FF[4]GM[4]") and "B[hh]" in text, text

        step = "a screenshot of the board"
        png = base64.b64decode(d.s("GET", "/screenshot"))
        path = os.path.join(a.out, "board.png")
        with open(path, "wb") as f:
            f.write(png)
        w, h, colours = png_colours(png)
        print(f"screenshot: {path}, {w}x{h}, {colours} distinct samples")
        assert w >= 600 and h >= 400 and colours >= 20, (w, h, colours)
        print("browser test: all steps passed")
        return 0
    except Exception as e:
        print(f"browser test failed at step '{step}': {e!r}", file=sys.stderr)
        if d:
            try:
                with open(os.path.join(a.out, "failure.png"), "wb") as f:
                    f.write(base64.b64decode(d.s("GET", "/screenshot")))
            except Exception:
                pass
        return 1
    finally:
        if d:
            d.quit()
        driver_proc.terminate()
        server.terminate()


if __name__ == "__main__":
    sys.exit(main())
