"""The browser client's benchmark: first-load bytes, and update-to-paint of a 5-player game in headless Chromium,
on desktop and with the CPU throttled 4x through the DevTools protocol (as for a mid-range phone), on two pages: a
spectator's (as it opens: the first seat's sheet big, every sheet small) and a player's (its own sheet big, its
options drawn on its turns). On request a third: a spectator who chose to follow the player to move (`follow`).

    python -m tests.web.bench_client [--decisions 60] [--views spectator player follow]
    python -m tests.web.bench_client --phone [--runs 5]

Five protocol clients play random legal decisions in a real `rajas serve`, one at a time: each waits until the
page has painted the previous update. For a player's page, the page takes seat 2 by its device link
(/?room=CODE#seat=TOKEN) and that seat's moves are sent on the page's own connection, as its buttons send them.
For every update the page records the JavaScript time of its message handler (parse, state, redraw) and the time
from the message's arrival to the end of the next frame (requestAnimationFrame, then a task: the frame that shows
it has been painted). First-load bytes are the sum of
the encoded (on the wire) sizes of everything the page loads (Network.loadingFinished), from `rajas serve` when
it serves the client compressed (server/edge/static.py mounted), else from server/edge/static.py on its own port.

With `--pause MS` the players wait that long after each paint before the next decision, as in a real game, where
updates come seconds apart: the page is idle in between and Chromium begins its frame at once, instead of at the next
tick of the frame clock it is still running from the previous update; the default,
back to back, is the figure of the targets.

With `--phone`, the page loads as on a phone network instead: Chromium throttled through the DevTools protocol to
150 ms round trips (`Network.emulateNetworkConditions`: latency 150 ms, 1.6 Mbit/s down, 750 kbit/s up), the CPU
4x slower (`Emulation.setCPUThrottlingRate`), at 390x844, with an empty cache; it reports the time from navigation
to the home page's screen drawn, and to a spectator's big sheet drawn in a game under way (ms since the navigation
began, `performance.now()` in the page when the screen first holds it), and how many requests each made.

With `--trace`, each watch is run a second time under a DevTools trace and the renderer's main thread is summed
per update in *thread* time (CPU actually spent: script, style, layout, pre-paint, paint, layerize and commit,
and all its tasks together). Wall-clock figures on a machine shared with other work include the time the
renderer waited for a core; the thread times do not, so they compare changes of the client across runs at
different loads (the traced run is slower, so its wall-clock figures are not reported).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rajas.protocol.client import Client

from tests.chromium import CHROMIUM, CHROMIUM_ARGS
from tests.web.web_helpers import CLIENT, rajas_serve

HOOK = """
(() => {
  const rec = window.__bench = { js: [], paint: [], count: 0, painted: 0, waiting: [] };
  // resolves once n updates are painted: woken by the paint itself, so that nothing polls the page meanwhile
  rec.until = (n) => new Promise((resolve, reject) => {
    const check = () => (rec.painted >= n ? resolve(true) : rec.waiting.push(check));
    setTimeout(() => reject(new Error(`update ${n} not painted within 30 s`)), 30000);
    check();
  });
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    set onmessage(f) {
      super.onmessage = (ev) => {
        const update = typeof ev.data === "string" && ev.data.includes('"type":"update"');
        const t0 = performance.now();
        f(ev);
        if (!update) return;
        rec.js.push(performance.now() - t0);
        rec.count += 1;
        requestAnimationFrame(() => setTimeout(() => {
          rec.paint.push(performance.now() - t0);
          rec.painted += 1;
          rec.waiting.splice(0).forEach((check) => check());
        }, 0));
      };
    }
  };
})();
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def static_only() -> Iterator[str]:
    """server/edge/static.py alone on uvicorn (for first-load bytes while rajas serve still serves files plainly)."""
    import uvicorn
    from rajas.server.edge.static import ClientFiles
    from starlette.applications import Starlette
    from starlette.routing import Mount

    port = _free_port()
    app = Starlette(routes=[Mount("/", ClientFiles(CLIENT))])
    server = uvicorn.Server(uvicorn.Config(app, port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=5)


def compressed(url: str) -> bool:
    req = urllib.request.Request(f"{url}/app.js", headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(req, timeout=5) as r:
        return r.headers.get("Content-Encoding") == "gzip"


def first_load(browser: Any, url: str) -> dict[str, Any]:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    sizes: dict[str, float] = {}
    cdp.on("Network.loadingFinished", lambda e: sizes.__setitem__(e["requestId"], e["encodedDataLength"]))
    page.goto(f"{url}/?lang=en", wait_until="networkidle")
    page.wait_for_selector("[data-screen=home]")
    first = sum(sizes.values())
    sizes.clear()
    page.reload(wait_until="networkidle")
    page.wait_for_selector("[data-screen=home]")
    again = sum(sizes.values())
    context.close()
    return {"first_load_bytes": int(first), "reload_bytes": int(again), "files": len(sizes)}


PHONE = {"offline": False, "latency": 150, "downloadThroughput": 1_600_000 / 8, "uploadThroughput": 750_000 / 8}
# the moment (ms since the navigation began) the page first shows what is waited for, read in the page itself
SHOWN = """(sel) => {
  const n = document.querySelector(sel);
  if (n && !window.__shown) window.__shown = performance.now();
  return !!n;
}"""


def phone_load(browser: Any, url: str, path: str, selector: str) -> dict[str, Any]:
    """One cold load of `path` on the phone network: ms from navigation to `selector` first in the page."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", PHONE)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    requests: list[str] = []
    cdp.on("Network.requestWillBeSent", lambda e: requests.append(e["request"]["url"]))
    try:
        page.goto(f"{url}{path}", wait_until="commit")
        page.wait_for_function(SHOWN, arg=selector, polling="raf", timeout=60_000)
        shown = page.evaluate("window.__shown")
    finally:
        context.close()
    return {"ms": round(shown), "requests": len(requests)}


def phone(browser: Any, url: str, runs: int, seed: int) -> dict[str, Any]:
    """The home page and a spectator's sheet (a 5-player game under way), `runs` cold loads each, alternating."""
    players = Players(url, seed)
    try:
        watch_code = players.run(players._seat())
        players.run(players._start())
        for _ in range(5):
            players.run(players._decide())
        home, sheet = [], []
        for _ in range(runs):
            home.append(phone_load(browser, url, "/?lang=en", "[data-screen=home] form[data-form=create]"))
            sheet.append(phone_load(browser, url, f"/?watch={watch_code}&lang=en", "[data-screen=game] svg.sheet"))
    finally:
        players.close()
    return {
        "phone": PHONE,
        "home_ms": [r["ms"] for r in home],
        "home_ms_p50": pct([r["ms"] for r in home], 0.5),
        "home_requests": home[-1]["requests"],
        "sheet_ms": [r["ms"] for r in sheet],
        "sheet_ms_p50": pct([r["ms"] for r in sheet], 0.5),
        "sheet_requests": sheet[-1]["requests"],
    }


class Players:
    """Five protocol clients in a room of their own, deciding on request from another thread."""

    def __init__(self, url: str, seed: int) -> None:
        self.url = url
        self.rng = random.Random(seed)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.seated: list[Client] = []
        self.gone: Client | None = None  # the client whose seat the page took

    def run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout=60)

    async def _seat(self) -> str:
        host = await Client(self.url).connect()
        created = await host.create_room(seats=5)
        await host.join(created["code"], name="Anna", host_token=created["host_token"])
        self.seated = [host]
        for name in ("Ben", "Cleo", "Dev", "Eva"):
            c = await Client(self.url).connect()
            await c.join(created["code"], name=name)
            self.seated.append(c)
        return str(created["watch"])

    async def _start(self) -> None:
        await self.seated[0].start()
        for c in self.seated:
            await c.wait_for(lambda c: c.game is not None)

    async def _decide(self) -> tuple[bool, Any]:
        """One random legal decision: made here, or returned (with its version) for the page when its seat moves."""
        first = self.seated[0]
        if first.over:
            return False, None
        pending = first.pending
        assert pending is not None
        option = self.rng.choice(pending["options"])
        mover = next((c for c in self.seated if c.seat == pending["player"]), None)
        if mover is None:  # the page's seat
            return True, (option, first.v)
        await mover.wait_for(lambda c: c.v == first.v)
        data = await mover.decide(option, v=mover.v)
        await self._caught_up(data["v"])
        return True, None

    async def _caught_up(self, v: int) -> None:
        for c in self.seated:
            await c.wait_for(lambda c, v=v: c.v is not None and c.v >= v)

    async def _hand_over(self, seat: int) -> str:
        """The page takes `seat` by its device link (/?room=CODE#seat=TOKEN); this side lets it go."""
        c = self.seated.pop(seat)
        link = f"?room={c.code}&lang=en#seat={c.token}"
        self.gone = c
        return link

    def close(self) -> None:
        async def shut() -> None:
            for c in [*self.seated, *([self.gone] if self.gone else [])]:
                await c.close()

        self.run(shut())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=5)


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * (len(s) - 1) + 0.5))] if s else float("nan")


# trace events of the renderer's main thread summed per update (thread time), by what the page did
PHASES = {
    "script": ("FunctionCall", "EvaluateScript", "TimerFire", "FireAnimationFrame", "EventDispatch"),
    "style": ("UpdateLayoutTree",),
    "layout": ("Layout",),
    "prepaint": ("PrePaint",),
    "paint": ("Paint",),
    "layerize": ("Layerize",),
    "commit": ("Commit",),
}


def main_thread_cpu(trace: bytes, updates: int) -> dict[str, float]:
    events = json.loads(trace)
    events = events["traceEvents"] if isinstance(events, dict) else events
    named = (e for e in events if e.get("name") == "thread_name")
    main = {(e["pid"], e["tid"]) for e in named if e["args"].get("name") == "CrRendererMain"}
    spans: dict[str, list[tuple[int, int, int]]] = {k: [] for k in [*PHASES, "tasks"]}
    for e in events:
        if e.get("ph") != "X" or (e["pid"], e["tid"]) not in main:
            continue
        kind = (k for k, v in PHASES.items() if e["name"] in v)
        name = "tasks" if e["name"] == "ThreadControllerImpl::RunTask" else next(kind, None)
        if name:
            spans[name].append((e["ts"], e["ts"] + e.get("dur", 0), e.get("tdur", e.get("dur", 0))))
    out: dict[str, float] = {}
    for name, xs in spans.items():
        # nested events of one kind (a Paint inside a Paint, a FunctionCall inside an EventDispatch) count once
        xs.sort()
        total, end = 0, -1
        for start, stop, cpu in xs:
            if start >= end:
                total += cpu
                end = stop
        out[f"cpu_{name}_ms"] = round(total / 1000 / max(1, updates), 2)
    return out


def watch(
    browser: Any,
    url: str,
    decisions: int,
    throttle: float,
    seed: int,
    trace: bool = False,
    pause: float = 0,
    view: str = "spectator",
) -> dict[str, Any]:
    players = Players(url, seed)
    context = browser.new_context(viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
    page = context.new_page()
    page.add_init_script(HOOK)
    try:
        watch_code = players.run(players._seat())
        if view == "player":
            # the page plays seat 2 ("Cleo"): its own sheet big, the others small, its options drawn on its turns
            page.goto(f"{url}/{players.run(players._hand_over(2))}")
        else:
            page.goto(f"{url}/?watch={watch_code}&lang=en")
        page.wait_for_function("window.__app && window.__app.screen === 'lobby'", timeout=20_000)
        players.run(players._start())
        page.wait_for_function("window.__app && window.__app.screen === 'game'", timeout=20_000)
        if view == "follow":
            page.click("[data-action=follow]")
            page.wait_for_selector("[data-action=follow][aria-pressed=true]")
        seat = page.evaluate("window.__app.seat")
        assert seat == (2 if view == "player" else None), "the page holds the seat measured"
        page.wait_for_timeout(300)
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
        cdp.send("Performance.enable")
        before = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
        if trace:
            categories = ["devtools.timeline", "disabled-by-default-devtools.timeline", "toplevel"]
            browser.start_tracing(page=page, categories=categories)
        base = page.evaluate("window.__bench.painted")
        page.evaluate("window.__bench.js = []; window.__bench.paint = []")
        own = 0
        for done in range(1, decisions + 1):
            going, mine = players.run(players._decide())
            if not going:
                break
            if mine is not None:
                # the page's own move, sent on its own connection as its decide button does
                data = page.evaluate("([d, v]) => window.__net.request('decide', { decision: d, v })", list(mine))
                own += 1
                players.run(players._caught_up(data["v"]))
            # (awaited, not polled: a poller's tasks would run on the page's main thread during the measured
            # time, four times as long with the CPU throttled, and one on every frame keeps its frame clock running)
            page.evaluate("(n) => window.__bench.until(n)", base + done)
            if pause:
                page.wait_for_timeout(pause)
        traced = browser.stop_tracing() if trace else None
        rec = page.evaluate("window.__bench")
        after = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    finally:
        context.close()
        players.close()
    js, paint = rec["js"], rec["paint"]
    if traced is not None:
        cpu = main_thread_cpu(traced, len(js))
        return {"view": view, "throttle": throttle, "updates": len(js), "own_moves": own, "traced": True, **cpu}
    per = max(1, len(js))
    spent = {
        f"{k}_ms_per_update": round((after[m] - before[m]) * 1000 / per, 1)
        for k, m in (("script", "ScriptDuration"), ("style", "RecalcStyleDuration"), ("layout", "LayoutDuration"))
    }
    return {
        "view": view,
        "throttle": throttle,
        "updates": len(js),
        "own_moves": own,  # of them, the page's own decisions (a player's page)
        "js_ms_mean": round(sum(js) / max(1, len(js)), 1),
        "js_ms_p50": round(pct(js, 0.5), 1),
        "js_ms_p99": round(pct(js, 0.99), 1),
        "paint_ms_p50": round(pct(paint, 0.5), 1),
        "paint_ms_p99": round(pct(paint, 0.99), 1),
        **spent,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--decisions", type=int, default=60, help="decisions watched per run (default 60)")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--trace", action="store_true", help="also print the renderer's main-thread CPU per update, traced")
    ap.add_argument("--pause", type=float, default=0, help="ms to wait after each paint (default 0)")
    ap.add_argument(
        "--views",
        nargs="+",
        choices=("spectator", "player", "follow"),
        default=["spectator", "player"],
        help="the pages measured: a spectator's, a player's (seat 2), a spectator following the player to move "
        "(default the first two)",
    )
    ap.add_argument("--phone", action="store_true", help="measure loading on a phone network instead (see above)")
    ap.add_argument("--runs", type=int, default=5, help="cold loads of each page with --phone (default 5)")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    if args.phone:
        with rajas_serve("bench-client.log") as url, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            try:
                print(json.dumps(phone(browser, url, args.runs, args.seed)))
            finally:
                browser.close()
        return

    with rajas_serve("bench-client.log") as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            if compressed(url):
                load = {"served_by": "rajas serve", **first_load(browser, url)}
            else:
                with static_only() as static_url:
                    alone = "server/edge/static.py alone (rajas serve does not mount it yet)"
                    load = {"served_by": alone, **first_load(browser, static_url)}
            print(json.dumps(load))
            for view in args.views:
                for throttle in (1.0, 4.0):
                    watched = watch(browser, url, args.decisions, throttle, args.seed, pause=args.pause, view=view)
                    print(json.dumps({"players": 5, **({"pause_ms": args.pause} if args.pause else {}), **watched}))
                    if args.trace:
                        again = {"pause": args.pause, "view": view}
                        traced = watch(browser, url, args.decisions, throttle, args.seed, trace=True, **again)
                        print(json.dumps({"players": 5, **traced}))
        finally:
            browser.close()


if __name__ == "__main__":
    main()
