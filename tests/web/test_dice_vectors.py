"""The browser's dice generator (games/dice_charmers/web/dicecheck.js) against the published test vectors
(docs/dice-vectors.json), which the engine's generator gives too (tests/engine/test_dice_generator.py):
in Chromium, and under node when it is installed."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from web_helpers import GAME

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
    module = '"/play/dice_charmers/dicecheck.js"'
    wrong = page.evaluate(CHECK.replace("MODULE", module), json.loads(VECTORS.read_text()))
    assert wrong == []


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_node_agrees_with_the_vectors(tmp_path: Path) -> None:
    script = tmp_path / "vectors.mjs"
    module = json.dumps((GAME / "dicecheck.js").as_uri())
    script.write_text(
        f"import {{ readFileSync }} from 'node:fs';\n"
        f"const check = {CHECK.replace('MODULE', module)};\n"
        f"const wrong = await check(JSON.parse(readFileSync({json.dumps(str(VECTORS))}, 'utf8')));\n"
        "console.log(JSON.stringify(wrong));\n"
    )
    # the game's modules are ES modules in .js files without a package.json: node is told to detect them.
    out = subprocess.run(
        ["node", "--experimental-detect-module", str(script)], capture_output=True, text=True, timeout=60, check=True
    )
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


def test_a_changed_vector_is_noticed(page: Any, base_url: str) -> None:
    """The check can fail: one face of one published roll changed is reported."""
    vectors = json.loads(VECTORS.read_text())
    vectors["cases"][1]["rolls"][1]["faces"][3] = (vectors["cases"][1]["rolls"][1]["faces"][3] + 1) % 6
    page.goto(f"{base_url}/index.html")
    wrong = page.evaluate(CHECK.replace("MODULE", '"/play/dice_charmers/dicecheck.js"'), vectors)
    assert len(wrong) == 1 and "rolls" in wrong[0]


def _engine_log() -> dict[str, Any]:
    """A whole game's log as the server writes it, made with the engine alone (random legal decisions)."""
    import hashlib
    import random

    from rajas.games.dice_charmers.engine import apply, legal_decisions, new_game
    from rajas.games.rng import DICE_VERSION, bot_contribution

    seed = hashlib.sha256(b"browser check").hexdigest()
    contributions = [
        {"value": hashlib.sha256(b"page 0").hexdigest(), "by": "player"},
        {"value": bot_contribution(seed, 1), "by": "bot"},
        {"value": hashlib.sha256(b"page 2").hexdigest(), "by": "player"},
    ]
    state, events = new_game(3, seed, contributions=[c["value"] for c in contributions])
    rolled = ("dice_rolled", "karma_rolled")
    log: dict[str, Any] = {
        "players": ["a", "b", "c"], "seed": seed, "commitment": hashlib.sha256(seed.encode()).hexdigest(),
        "dice": DICE_VERSION, "contributions": contributions, "start_player": state.start_player,
        "start_rolls": [e for e in events if e["type"] in rolled], "decisions": [],
    }  # fmt: skip
    rnd = random.Random(4)
    while not state.is_over:
        seat = state.current
        decision = rnd.choice(legal_decisions(state))
        state, events = apply(state, decision)
        log["decisions"].append([seat, decision.to_wire(), "player", [e for e in events if e["type"] in rolled]])
    return json.loads(json.dumps(log))


def test_the_page_check_names_what_failed(page: Any, base_url: str) -> None:
    log = _engine_log()
    karma_at = next(i for i, d in enumerate(log["decisions"]) if any(r["type"] == "karma_rolled" for r in d[3]))
    page.goto(f"{base_url}/index.html")
    got = page.evaluate(
        """async ([log, karmaAt]) => {
          const m = await import("/play/dice_charmers/dicecheck.js");
          const seen = { commitment: log.commitment, contribution: log.contributions[2].value };
          const copy = () => JSON.parse(JSON.stringify(log));
          const out = { ok: m.checkLog(log, seen) };
          let x = copy(); x.contributions[2].value = "f".repeat(64); out.mine = m.checkLog(x, seen);
          x = copy(); x.contributions[1].value = "e".repeat(64); out.bot = m.checkLog(x, seen);
          x = copy(); x.start_player = (x.start_player + 1) % 3; out.start = m.checkLog(x, seen);
          x = copy(); x.seed = "0".repeat(64); out.seed = m.checkLog(x, seen);
          x = copy(); x.start_rolls[0].faces[7] = (x.start_rolls[0].faces[7] + 1) % 6; out.first = m.checkLog(x, seen);
          x = copy();
          const r = x.decisions[karmaAt][3].find((r) => r.type === "karma_rolled");
          r.faces[r.faces.length - 1] = (r.faces[r.faces.length - 1] + 1) % 6;
          out.karma = { ...m.checkLog(x, seen), dice: r.dice };
          return out;
        }""",
        [log, karma_at],
    )
    total = len(log["start_rolls"]) + sum(len(d[3]) for d in log["decisions"])
    assert got["ok"] == {"ok": True, "rolls": total}
    assert got["mine"]["step"]["kind"] == "mine"
    assert got["bot"]["step"] == {"kind": "bot_contribution", "seat": 1}
    assert got["start"]["step"]["kind"] == "start_player"
    assert got["seed"]["step"]["kind"] == "seed"
    assert got["first"]["step"] | {"log": None, "dice": None} == {
        "kind": "roll", "roll": 1, "decision": None, "die": 7, "log": None, "dice": None,
    }  # fmt: skip
    # a karma reroll's failure names the die that reroll rolled, not its place in the event
    assert got["karma"]["step"]["decision"] == karma_at and got["karma"]["step"]["die"] == got["karma"]["dice"][-1]
