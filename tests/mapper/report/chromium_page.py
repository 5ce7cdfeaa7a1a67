"""Drives a real headless Chromium over the DevTools protocol (a pipe, no
network port) through a `testmap report` page and prints what it saw as one
JSON document for report_page_test.cc to check against the index's truth:

- every heatmap cell as drawn (the list is virtual: it scrolls through it),
  the most rows that were ever in the DOM at once;
- one cell clicked with a real mouse event, and the test list it opened;
- the same after narrowing the evidence filter to one kind;
- the plan table and Gantt, the runs table, the admission table;
- script errors, console errors and every request the page made;
- a screenshot (PNG), decoded here with zlib + numpy, with its pixel
  statistics, so that the test can assert it is not blank.

Usage: chromium_page.py CHROMIUM PAGE.html SCREENSHOT.png OP DTYPE EVIDENCE
"""
import base64
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

import numpy as np

FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-extensions", "--disable-default-apps", "--mute-audio", "--hide-scrollbars",
]
WIDTH, HEIGHT = 1280, 900
TIMEOUT = 30


class Browser:
    """Chromium with --remote-debugging-pipe: it reads commands on fd 3 and
    writes replies and events on fd 4, each message NUL-terminated."""

    def __init__(self, chromium):
        self.profile = tempfile.mkdtemp(prefix="testmap-chromium-")
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        def wire():
            a, b = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [chromium, *FLAGS, "--user-data-dir=" + self.profile, "--remote-debugging-pipe",
             f"--window-size={WIDTH},{HEIGHT}", "about:blank"],
            preexec_fn=wire, close_fds=False, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.session = None

    def send(self, method, params=None, session=True):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.to_chrome, json.dumps(msg).encode() + b"\0")
        return self.wait_for(lambda m: m.get("id") == self.next_id)

    def wait_for(self, match, timeout=TIMEOUT):
        deadline = time.time() + timeout
        for m in self.events:
            if match(m):
                self.events.remove(m)
                return m
        while time.time() < deadline:
            while b"\0" in self.buf:
                raw, self.buf = self.buf.split(b"\0", 1)
                m = json.loads(raw)
                if match(m):
                    if "error" in m:
                        raise RuntimeError(f"DevTools error: {m['error']}")
                    return m
                self.events.append(m)
            chunk = os.read(self.from_chrome, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium closed the DevTools pipe: " +
                                   self.proc.stderr.read().decode(errors="replace")[-2000:])
            self.buf += chunk
        raise TimeoutError("no DevTools answer in time")

    def eval(self, expression):
        r = self.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                           "returnByValue": True})["result"]
        if "exceptionDetails" in r:
            raise RuntimeError("page script failed: " + json.dumps(r["exceptionDetails"])[:2000])
        return r["result"].get("value")

    def close(self):
        try:
            self.send("Browser.close", session=False)
        except Exception:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


# In-page helpers: frames to let the virtual list draw, and a walk over it.
HELPERS = r"""
window.__frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
window.__cells = async () => {
  const box = document.getElementById('heatmap');
  const cells = {}; let maxRows = 0, frames = 0;
  const t0 = performance.now();
  box.scrollTop = 0; await __frames();
  for (;;) {
    const rows = document.querySelectorAll('#heatmap-body .hm-row');
    maxRows = Math.max(maxRows, rows.length);
    for (const row of rows) for (const c of row.querySelectorAll('.cell'))
      cells[row.dataset.op + '\u0000' + c.dataset.dtype] = c.textContent;
    if (box.scrollTop + box.clientHeight >= box.scrollHeight - 1) break;
    box.scrollTop += Math.max(20, box.clientHeight / 2); await __frames(); frames++;
  }
  const ms = performance.now() - t0;
  const out = [];
  for (const [k, v] of Object.entries(cells)) { const [op, dt] = k.split('\u0000'); out.push([op, dt, v]); }
  return {cells: out, maxRows, ms, frames,
          status: document.getElementById('heatmap-status').textContent};
};
window.__findCell = async (op, dtype) => {
  const box = document.getElementById('heatmap');
  box.scrollTop = 0; await __frames();
  for (;;) {
    const row = [...document.querySelectorAll('#heatmap-body .hm-row')].find((r) => r.dataset.op === op);
    if (row) {
      const cell = [...row.querySelectorAll('.cell')].find((c) => c.dataset.dtype === dtype);
      cell.scrollIntoView({block: 'center', inline: 'center'}); await __frames();
      const r = cell.getBoundingClientRect();
      return {x: r.left + r.width / 2, y: r.top + r.height / 2, text: cell.textContent};
    }
    if (box.scrollTop + box.clientHeight >= box.scrollHeight - 1) return null;
    box.scrollTop += box.clientHeight / 2; await __frames();
  }
};
window.__panel = async () => {
  for (let more = document.getElementById('cell-more'); !more.hidden; ) { more.click(); await __frames(); }
  const p = document.getElementById('cell-panel');
  const sel = document.querySelector('#heatmap-body .cell.selected');
  return {hidden: p.hidden, op: p.dataset.op, dtype: p.dataset.dtype,
          title: document.getElementById('cell-title').textContent,
          meta: document.getElementById('cell-meta').textContent,
          tests: [...document.querySelectorAll('#cell-tests li')].map((li) => li.dataset.nodeid),
          outcomes: [...document.querySelectorAll('#cell-tests li .o')].map((o) => o.textContent),
          selected: sel ? [sel.parentElement.dataset.op, sel.dataset.dtype] : null};
};
window.__only = async (evidence) => {
  let changes = 0;
  const t0 = performance.now();
  for (const box of document.querySelectorAll('#evidence-filter input'))
    if (box.checked !== (box.value === evidence)) { box.click(); changes++; }
  const ms = (performance.now() - t0) / Math.max(1, changes);  // recount and redraw, each
  await __frames();
  return {checked: [...document.querySelectorAll('#evidence-filter input')].filter((b) => b.checked)
                   .map((b) => b.value), ms};
};
window.__plan = () => ({
  summary: (document.getElementById('plan-summary') || {}).textContent || null,
  rows: [...document.querySelectorAll('#plan-table tbody tr')].map((tr) => ({
    split: +tr.dataset.split, predicted_process: +tr.dataset.predictedProcess,
    predicted_session: tr.dataset.predictedSession === undefined ? null : +tr.dataset.predictedSession,
    cells: [...tr.children].map((td) => td.textContent),
    measured: tr.dataset.measured === undefined ? null : +tr.dataset.measured,
    measured_wall: tr.dataset.measuredWall === undefined ? null : +tr.dataset.measuredWall})),
  heads: [...document.querySelectorAll('#plan-table thead th')].map((th) => th.textContent),
  legend: [...document.querySelectorAll('#plan-body .legend span')].map((e) => e.textContent),
  gantt: [...document.querySelectorAll('#plan-gantt g.split')].map((g) => ({
    split: +g.dataset.split, bars: g.querySelectorAll('rect.bar').length,
    measured: g.querySelectorAll('rect.measured').length,
    width: [...g.querySelectorAll('rect.bar')].reduce((w, r) => w + +r.getAttribute('width'), 0),
    outside: [...g.querySelectorAll('rect.outside')].reduce((w, r) => w + +r.getAttribute('width'), 0),
    measured_width: [...g.querySelectorAll('rect.measured')]
      .reduce((w, r) => w + +r.getAttribute('width'), 0)})),
});
window.__admission = () => ({
  summary: (document.getElementById('admission-summary') || {}).textContent || null,
  unavailable: (document.getElementById('admission-unavailable') || {}).textContent || null,
  rows: [...document.querySelectorAll('#admission-table tbody tr')].map((tr) => ({
    op: tr.dataset.op, route: tr.dataset.route, blocks: +tr.dataset.blocks,
    cells: [...tr.children].map((td) => td.textContent)}))});
window.__runs = () => [...document.querySelectorAll('#runs-table tbody tr')].map((tr) => ({
  run: tr.dataset.run, cells: [...tr.children].map((td) => td.textContent),
  titles: [...tr.querySelectorAll('[title]')].map((e) => e.title)}));
true;
"""


def png_stats(png):
    """Decodes an 8-bit RGB(A) PNG (any filter) and measures how much is on it."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        body = png[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    assert depth == 8 and color in (2, 6) and interlace == 0, (depth, color, interlace)
    bpp = 3 if color == 2 else 4
    stride = width * bpp
    raw = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(height, stride + 1)
    out = np.zeros((height, stride), dtype=np.uint8)
    prev = np.zeros(stride, dtype=np.int32)
    for y in range(height):
        f, line = raw[y, 0], raw[y, 1:].astype(np.int32)
        if f == 0:
            cur = line
        elif f == 1:  # Sub: a running sum per channel
            cur = np.cumsum(line.reshape(width, bpp), axis=0).reshape(stride) & 255
        elif f == 2:  # Up
            cur = (line + prev) & 255
        else:  # Average, Paeth: depend on the pixel to the left, one at a time
            cur = np.zeros(stride, dtype=np.int32)
            for x in range(stride):
                a = cur[x - bpp] if x >= bpp else 0
                b = prev[x]
                c = prev[x - bpp] if x >= bpp else 0
                if f == 3:
                    cur[x] = (line[x] + (a + b) // 2) & 255
                else:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                    cur[x] = (line[x] + pred) & 255
        out[y] = cur
        prev = cur
    rgb = out.reshape(height, width, bpp)[:, :, :3].astype(np.int32)
    packed = (rgb[:, :, 0] << 16) | (rgb[:, :, 1] << 8) | rgb[:, :, 2]
    values, counts = np.unique(packed, return_counts=True)
    background = values[np.argmax(counts)]
    luma = 0.299 * rgb[:, :, 0] + 0.587 * rgb[:, :, 1] + 0.114 * rgb[:, :, 2]
    return {"width": int(width), "height": int(height), "colors": int(len(values)),
            "non_background": float(np.mean(packed != background)),
            "luma_std": float(luma.std()),
            "background": "#%06x" % int(background)}


def main():
    chromium, page, screenshot, op, dtype, evidence = sys.argv[1:7]
    browser = Browser(chromium)
    try:
        targets = browser.send("Target.getTargets", session=False)["result"]["targetInfos"]
        target = next(t for t in targets if t["type"] == "page")
        browser.session = browser.send("Target.attachToTarget",
                                       {"targetId": target["targetId"], "flatten": True},
                                       session=False)["result"]["sessionId"]
        for domain in ("Page", "Runtime", "Network", "Log"):
            browser.send(domain + ".enable")
        browser.send("Emulation.setDeviceMetricsOverride",
                     {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False})
        url = "file://" + os.path.abspath(page)
        started = time.time()
        browser.send("Page.navigate", {"url": url})
        browser.wait_for(lambda m: m.get("method") == "Page.loadEventFired")
        ready = browser.eval("document.body.dataset.ready || null")
        # From navigation start to the end of the load event: parsing the
        # page and its data and drawing it (the script runs before `load`).
        loaded_ms = browser.eval(
            "performance.getEntriesByType('navigation')[0].loadEventEnd")
        result = {"ready": ready, "load_ms": loaded_ms,
                  "navigate_ms": (time.time() - started) * 1000,
                  "error": browser.eval("document.body.dataset.error || null"),
                  "summary": browser.eval("document.getElementById('summary').textContent")}
        browser.eval(HELPERS)
        result["all"] = browser.eval("__cells()")

        # A real click: the mouse at the cell's centre, pressed and released.
        where = browser.eval(f"__findCell({json.dumps(op)}, {json.dumps(dtype)})")
        result["click_target"] = where
        if where:
            click_started = time.time()
            for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
                browser.send("Input.dispatchMouseEvent",
                             {"type": kind, "x": where["x"], "y": where["y"], "button": "left",
                              "buttons": 1 if kind == "mousePressed" else 0, "clickCount": 1})
            browser.eval("__frames()")
            result["click_ms"] = (time.time() - click_started) * 1000
        result["panel"] = browser.eval("__panel()")

        only = browser.eval(f"__only({json.dumps(evidence)})")
        result["filter"], result["filter_ms"] = only["checked"], only["ms"]
        result["filtered"] = browser.eval("__cells()")
        result["filtered_panel"] = browser.eval("__panel()")
        result["plan"] = browser.eval("__plan()")
        result["runs"] = browser.eval("__runs()")
        result["admission"] = browser.eval("__admission()")

        # Back to everything, the clicked cell's list open, at the top.
        browser.eval("(async () => { for (const b of document.querySelectorAll('#evidence-filter "
                     "input')) if (!b.checked) b.click(); document.getElementById('heatmap')"
                     ".scrollTop = 0; document.getElementById('heatmap').scrollLeft = 0; "
                     "window.scrollTo(0, 0); await __frames(); })()")
        # The whole page: heatmap with the open cell, admission, plan, runs.
        size = browser.send("Page.getLayoutMetrics")["result"]["cssContentSize"]
        clip = {"x": 0, "y": 0, "width": WIDTH, "height": min(int(size["height"]), 4000),
                "scale": 1}
        shot = browser.send("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True,
                                                       "captureBeyondViewport": True, "clip": clip})
        png = base64.b64decode(shot["result"]["data"])
        with open(screenshot, "wb") as f:
            f.write(png)
        result["screenshot"] = dict(png_stats(png), path=screenshot, bytes=len(png))

        # What the page asked for besides itself, and what went wrong.
        events = browser.events
        result["requests"] = sorted({m["params"]["request"]["url"] for m in events
                                     if m.get("method") == "Network.requestWillBeSent"} - {url})
        result["exceptions"] = [m["params"]["exceptionDetails"].get("text", "") + " " +
                                json.dumps(m["params"]["exceptionDetails"].get("exception", {}))
                                for m in events if m.get("method") == "Runtime.exceptionThrown"]
        result["console_errors"] = [
            " ".join(str(a.get("value", a.get("description", ""))) for a in m["params"]["args"])
            for m in events
            if m.get("method") == "Runtime.consoleAPICalled" and m["params"]["type"] == "error"]
        result["log_errors"] = [m["params"]["entry"]["text"] for m in events
                                if m.get("method") == "Log.entryAdded"
                                and m["params"]["entry"]["level"] == "error"]
    finally:
        browser.close()
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
