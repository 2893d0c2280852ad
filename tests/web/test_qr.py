"""The "another device" QR code (client_web/device.js, made by the vendored qrcode-generator), run in Chromium: a
barcode reader (zxing-cpp) reads the codes the page draws back to their text, for the seat link, a text with a
non-ASCII character (UTF-8 bytes), and texts of every version's capacity at level M; the page picks the smallest
version that holds the text, as a Python QR library (qrcode) does; the code has its quiet zone and its name."""

from __future__ import annotations

import re
from typing import Any

import pytest

qrcode = pytest.importorskip("qrcode")
zxingcpp = pytest.importorskip("zxingcpp")

# The codes the page draws: each as its module count and its path's runs of dark modules.
DRAW = """async (texts) => {
  const { render } = await import("/ui.js");
  const { qrSvg } = await import("/device.js");
  const out = [];
  for (const text of texts) {
    const { size, svg } = await qrSvg(text, "Scan me");
    const box = document.createElement("div");
    render(svg, box);
    const node = box.querySelector("svg");
    const get = (name) => node.getAttribute(name);
    const d = node.querySelector("path").getAttribute("d");
    out.push({ size, box: get("viewBox"), name: get("aria-label"), role: get("role"), d });
  }
  return out;
}"""


def capacity_text(version: int) -> str:
    """A text of the most bytes version `version` holds at level M (the reference library says how many)."""
    from qrcode.util import BIT_LIMIT_TABLE

    bits = BIT_LIMIT_TABLE[qrcode.constants.ERROR_CORRECT_M][version] - 4 - (8 if version <= 9 else 16)
    return "".join(chr(ord("a") + i % 26) for i in range(bits // 8))


def reference_version(text: str) -> int:
    q = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=0)
    q.add_data(qrcode.util.QRData(text.encode(), mode=qrcode.util.MODE_8BIT_BYTE))
    q.make(fit=True)
    return int(q.version)


def read(drawn: dict[str, Any], scale: int = 4) -> list[str]:
    """The texts a barcode reader finds in a drawn code (its quiet zone included), as a grey image."""
    n = int(drawn["box"].split()[2])
    w = n * scale
    image = bytearray([255]) * (w * w)
    for x, y, run in re.findall(r"M(\d+) (\d+)h(\d+)v1h-\d+z", drawn["d"]):
        for dy in range(scale):
            at = (int(y) * scale + dy) * w + int(x) * scale
            image[at : at + int(run) * scale] = bytes(int(run) * scale)
    return [r.text for r in zxingcpp.read_barcodes(memoryview(image).cast("B", (w, w)))]


def test_a_reader_reads_the_seat_link_and_utf8_back(page: Any, base_url: str) -> None:
    link = "https://rajas.example.org/?room=k7p-xq4m-9rtz#seat=Yk3_f0Qw9ZxLmP2aTt7uVbCd"
    page.goto(f"{base_url}/index.html")
    texts = [link, link + "é", "x"]
    for text, drawn in zip(texts, page.evaluate(DRAW, texts), strict=True):
        assert read(drawn) == [text]
        assert (drawn["size"] - 17) // 4 == reference_version(text), "the smallest version that holds the text"


def test_every_versions_capacity_is_read_back(page: Any, base_url: str) -> None:
    versions = [1, 2, 5, 7, 8, 10, 14, 20, 27, 33, 40]
    texts = [capacity_text(v) for v in versions] + [capacity_text(7) + "!"]
    page.goto(f"{base_url}/index.html")
    got = page.evaluate(DRAW, texts)
    for text, drawn in zip(texts, got, strict=True):
        assert (drawn["size"] - 17) // 4 == reference_version(text), f"{len(text)} bytes"
        assert read(drawn, scale=3) == [text], f"{len(text)} bytes"
    assert (got[-1]["size"] - 17) // 4 == 8  # one byte past version 7's capacity


def test_the_svg_has_a_quiet_zone_and_a_name(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/index.html")
    drawn = page.evaluate(DRAW, ["https://rajas.example.org/?room=abc"])[0]
    assert drawn["box"] == f"0 0 {drawn['size'] + 8} {drawn['size'] + 8}"
    assert drawn["name"] == "Scan me" and drawn["role"] == "img"
    # a reader finds nothing once a third of the rows are gone, beyond the error correction: the reading can fail
    runs = re.findall(r"M\d+ (\d+)h\d+v1h-\d+z", drawn["d"])
    steps = re.findall(r"M\d+ \d+h\d+v1h-\d+z", drawn["d"])
    kept = [step for step, y in zip(steps, runs, strict=True) if not 14 <= int(y) <= 24]
    assert read(dict(drawn, d="".join(kept))) == []
