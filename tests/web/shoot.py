"""Screenshots of the demo page for every fixture (a design aid): python3 tests/web/shoot.py [fixture...]."""

from __future__ import annotations

import functools
import http.server
import sys
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(ROOT))
from web_helpers import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, CLIENT, QuietHandler  # noqa: E402


def main(names: list[str]) -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(CLIENT)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    try:
        with sync_playwright() as pw:
            b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            for name in names or ["midgame"]:
                fixture, _, lang = name.partition(":")
                for width, height, tag in ((1280, 1000, "wide"), (390, 844, "phone")):
                    scale = 2 if tag == "phone" else 1
                    ctx = b.new_context(viewport={"width": width, "height": height}, device_scale_factor=scale)
                    p = ctx.new_page()
                    p.on("console", lambda m: print("console:", m.type, m.text) if m.type == "error" else None)
                    p.on("pageerror", lambda e: print("pageerror:", e))
                    p.goto(f"{url}/play/dice_charmers/demo.html?fixture={fixture}&lang={lang or 'en'}")
                    p.wait_for_function("window.__ready === true", timeout=10_000)
                    out = ARTIFACTS / f"demo-{fixture}-{lang or 'en'}-{tag}.png"
                    p.screenshot(path=str(out), full_page=True)
                    sheet_png = ARTIFACTS / f"sheet-{fixture}-{lang or 'en'}-{tag}.png"
                    p.locator("#me svg.sheet").screenshot(path=str(sheet_png))
                    print(out)
                    ctx.close()
            b.close()
    finally:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    main(sys.argv[1:])
