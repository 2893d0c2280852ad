"""The browser's dice generator (client_web/dicecheck.js) against the published test vectors
(docs/dice-vectors.json), which the engine's generator gives too (tests/engine/test_dice_generator.py):
in Chromium, and under node when it is installed."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from web_helpers import CLIENT

VECTORS = Path(__file__).resolve().parents[2] / "docs" / "dice-vectors.json"

# Recomputes every vector with the module and returns what differs (an empty list: all agree).
CHECK = """async (vectors) => {
  const m = await import(MODULE);
  const wrong = [];
  for (const c of vectors.cases) {
    const where = c.seed.slice(0, 8);
    if (m.sha256Hex ? m.sha256Hex(c.seed) !== c.commitment : false) wrong.push(`${where}: commitment`);
    const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
    if (hex(m.diceKey(c.seed, c.contributions)) !== c.key) wrong.push(`${where}: key`);
    const d = m.Dice.of(c.seed, c.contributions);
    const u64 = c.u64.map(() => d.nextU64().toString(16).padStart(16, "0"));
    if (JSON.stringify(u64) !== JSON.stringify(c.u64)) wrong.push(`${where}: u64 ${u64}`);
    const e = m.Dice.of(c.seed, c.contributions);
    const rolls = c.rolls.map((r) => ({ sides: r.sides, faces: r.faces.map(() => e.roll(r.sides)) }));
    if (JSON.stringify(rolls) !== JSON.stringify(c.rolls)) wrong.push(`${where}: rolls ${JSON.stringify(rolls)}`);
    if (e.stateHex() !== c.state_after) wrong.push(`${where}: state ${e.stateHex()}`);
  }
  for (const b of vectors.bot_contributions) {
    if (m.botContribution(b.seed, b.seat) !== b.value) wrong.push(`bot ${b.seat}`);
  }
  if (m.DICE_VERSION !== vectors.generator) wrong.push("generator");
  return wrong;
}"""


def test_chromium_agrees_with_the_vectors(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/index.html")
    wrong = page.evaluate(CHECK.replace("MODULE", '"/dicecheck.js"'), json.loads(VECTORS.read_text()))
    assert wrong == []


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_node_agrees_with_the_vectors(tmp_path: Path) -> None:
    script = tmp_path / "vectors.mjs"
    module = json.dumps((CLIENT / "dicecheck.js").as_uri())
    script.write_text(
        f"import {{ readFileSync }} from 'node:fs';\n"
        f"const check = {CHECK.replace('MODULE', module)};\n"
        f"const wrong = await check(JSON.parse(readFileSync({json.dumps(str(VECTORS))}, 'utf8')));\n"
        "console.log(JSON.stringify(wrong));\n"
    )
    # client_web's modules are ES modules in .js files without a package.json: node is told to detect them.
    out = subprocess.run(
        ["node", "--experimental-detect-module", str(script)], capture_output=True, text=True, timeout=60, check=True
    )
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


def test_a_changed_vector_is_noticed(page: Any, base_url: str) -> None:
    """The check can fail: one face of one published roll changed is reported."""
    vectors = json.loads(VECTORS.read_text())
    vectors["cases"][1]["rolls"][1]["faces"][3] = (vectors["cases"][1]["rolls"][1]["faces"][3] + 1) % 6
    page.goto(f"{base_url}/index.html")
    wrong = page.evaluate(CHECK.replace("MODULE", '"/dicecheck.js"'), vectors)
    assert len(wrong) == 1 and "rolls" in wrong[0]
