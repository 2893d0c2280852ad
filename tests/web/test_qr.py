"""The browser's QR encoder (client_web/qr.js), run in Chromium: its module matrices are the ones a Python QR
library (qrcode) makes for the same bytes, level and mask, for every version 1 to 40 at level M and a spread
at level L; it picks the smallest version that holds the text; and a barcode reader (zxing-cpp) reads the
codes it draws back to their text."""

from __future__ import annotations

from typing import Any

import pytest

qrcode = pytest.importorskip("qrcode")
zxingcpp = pytest.importorskip("zxingcpp")
from qrcode.util import MODE_8BIT_BYTE, QRData  # noqa: E402

LEVELS = {"M": qrcode.constants.ERROR_CORRECT_M, "L": qrcode.constants.ERROR_CORRECT_L}

# The matrices of each text at each level (the encoder's own choice of mask, or the one given).
ENCODE = """async (cases) => {
  const { qrCode } = await import("/qr.js");
  return cases.map(([text, ecl, mask]) => {
    const c = qrCode(text, { ecl, mask });
    return { version: c.version, mask: c.mask, rows: c.modules.map((r) => r.map((d) => (d ? "1" : "0")).join("")) };
  });
}"""


def reference(text: str, ecl: str, mask: int) -> tuple[int, list[str]]:
    q = qrcode.QRCode(error_correction=LEVELS[ecl], mask_pattern=mask, border=0)
    q.add_data(QRData(text.encode(), mode=MODE_8BIT_BYTE))
    q.make(fit=True)
    return q.version, ["".join("1" if d else "0" for d in row) for row in q.get_matrix()]


def capacity_text(version: int, ecl: str) -> str:
    """A text of the most bytes version `version` holds at level `ecl` (the reference library says how many)."""
    from qrcode.util import BIT_LIMIT_TABLE

    bits = BIT_LIMIT_TABLE[LEVELS[ecl]][version] - 4 - (8 if version <= 9 else 16)
    return "".join(chr(ord("a") + i % 26) for i in range(bits // 8))


def read(rows: list[str], scale: int = 4) -> list[str]:
    """The texts a barcode reader finds in the code drawn as a grey image (with its 4-module quiet zone)."""
    n, quiet = len(rows), 4
    w = (n + 2 * quiet) * scale
    image = bytearray([255]) * (w * w)
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark == "1":
                for dy in range(scale):
                    at = ((y + quiet) * scale + dy) * w + (x + quiet) * scale
                    image[at : at + scale] = bytes(scale)
    return [r.text for r in zxingcpp.read_barcodes(memoryview(image).cast("B", (w, w)))]


def test_every_version_is_the_reference_librarys_code(page: Any, base_url: str) -> None:
    cases = [(capacity_text(v, "M"), "M", v % 8) for v in range(1, 41)]
    cases += [(capacity_text(v, "L"), "L", (v * 3) % 8) for v in (1, 2, 5, 6, 7, 9, 10, 14, 21, 27, 33, 40)]
    page.goto(f"{base_url}/index.html")
    got = page.evaluate(ENCODE, [list(c) for c in cases])
    for (text, ecl, mask), mine in zip(cases, got, strict=True):
        version, rows = reference(text, ecl, mask)
        assert mine["version"] == version, f"{ecl} {len(text)} bytes"
        assert mine["rows"] == rows, f"version {version}-{ecl}, mask {mask}"


def test_the_smallest_version_that_holds_the_text_and_every_mask(page: Any, base_url: str) -> None:
    link = "https://rajas.example.org/?room=k7p-xq4m-9rtz#seat=Yk3_f0Qw9ZxLmP2aTt7uVbCd"
    cases = [(link, "M", None), (link + "é", "M", None), ("x", "M", None), (capacity_text(7, "M") + "!", "M", None)]
    cases += [(link, "M", mask) for mask in range(8)]
    page.goto(f"{base_url}/index.html")
    got = page.evaluate(ENCODE, [list(c) for c in cases])
    assert [g["version"] for g in got[:4]] == [reference(t, e, 0)[0] for t, e, _ in cases[:4]]
    assert got[3]["version"] == 8  # one byte past version 7's capacity
    for (text, ecl, mask), mine in zip(cases[4:], got[4:], strict=True):
        assert mine["rows"] == reference(text, ecl, mask)[1]
    # the encoder's own mask choice is a valid code too: a reader reads the link back, also with a UTF-8 byte
    assert read(got[0]["rows"]) == [link]
    assert read(got[1]["rows"]) == [link + "é"]


def test_a_changed_module_is_noticed(page: Any, base_url: str) -> None:
    """The comparison can fail: one module flipped in the reference differs from the encoder's code."""
    page.goto(f"{base_url}/index.html")
    mine = page.evaluate(ENCODE, [["rajas", "M", 3]])[0]["rows"]
    _version, rows = reference("rajas", "M", 3)
    rows[10] = rows[10][:12] + ("0" if rows[10][12] == "1" else "1") + rows[10][13:]
    assert mine != rows


def test_the_svg_has_a_quiet_zone_and_a_name(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/index.html")
    got = page.evaluate("""async () => {
      const { qrSvg, qrCode } = await import("/qr.js");
      const svg = qrSvg("https://rajas.example.org/?room=abc", { label: "Scan me" });
      return { box: svg.getAttribute("viewBox"), name: svg.getAttribute("aria-label"), role: svg.getAttribute("role"),
               size: qrCode("https://rajas.example.org/?room=abc").size };
    }""")
    assert got["box"] == f"0 0 {got['size'] + 8} {got['size'] + 8}"
    assert got["name"] == "Scan me" and got["role"] == "img"
