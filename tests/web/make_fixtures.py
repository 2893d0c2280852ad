"""Writes the Dice Charmers' demo fixtures (games/dice_charmers/web/fixtures/*.json) from real games of the engine.

Each fixture is `{"sheet": sheet.to_json(), "state": the state as clients see it, "pending": pending(state)}` at one
moment of a game played with random legal decisions. Run: `python3 tests/web/make_fixtures.py`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rajas.games.dice_charmers.engine import apply, legal_decisions, load_sheet, new_game, pending
from rajas.games.dice_charmers.game import GAME

OUT = Path(__file__).resolve().parents[2] / "games" / "dice_charmers" / "web" / "fixtures"

Moment = Callable[[Any, dict[str, Any]], bool]


def _kinds(p: dict[str, Any]) -> set[str]:
    return {o[0] for o in p["options"]}


def _drawn(state: Any) -> int:
    """Province spaces with a road on the sheet of the player to move."""
    return sum(1 for r in state.players[state.current].roads if r)


MOMENTS: dict[str, tuple[int, Moment]] = {
    # name: (players, predicate on (state, pending))
    "start": (4, lambda s, p: True),
    "midgame": (4, lambda s, p: s.round >= 8 and _drawn(s) >= 8 and p["phase"] == "pick" and len(p["options"]) >= 4),
    "road": (3, lambda s, p: s.round >= 3 and (p["effect"] or [""])[0] == "road" and len(p["options"]) >= 5),
    "karma": (4, lambda s, p: p["phase"] == "pick" and "karma" in _kinds(p) and "die" in _kinds(p)),
    "reroll": (2, lambda s, p: p["phase"] == "reroll"),
    "choice": (5, lambda s, p: s.round >= 3 and bool(_kinds(p) & {"sell", "goods", "goods_die"})),
    "sell": (4, lambda s, p: sum(1 for o in p["options"] if o[0] == "sell") >= 4),
    "bonuses": (3, lambda s, p: "use" in _kinds(p) and len(p["pool"]) >= 2),
    "half_road": (4, lambda s, p: "half_road" in _kinds(p) and "road" in _kinds(p) and s.round >= 5),
    "palace": (3, lambda s, p: "palace" in _kinds(p) and s.round >= 3),
    "river": (3, lambda s, p: sum(1 for o in p["options"] if o[0] == "river") >= 2),
    "upgrade": (4, lambda s, p: sum(1 for o in p["options"] if o[0] == "upgrade") >= 2 and s.round >= 4),
    "over": (2, lambda s, p: s.is_over),
    "moon": (5, lambda s, p: s.round >= 6 and _drawn(s) >= 5 and p["phase"] == "pick"),
}
SHEETS = {"moon": "moon"}  # moments played on another sheet than the Sun


def choose(rnd: random.Random, state: Any, options: list[Any]) -> Any:
    """A random legal decision, leaning towards roads so the province fills up like in a real game."""
    roads = [d for d in options if d.kind in ("road", "half_road")]
    if roads and rnd.random() < 0.8:
        return rnd.choice(roads)
    green = [d for d in options if d.kind == "die" and state.sheet.die_colour[d.args[0]] == "green"]
    if green and rnd.random() < 0.4:
        return rnd.choice(green)
    return rnd.choice(options)


def find(players: int, predicate: Moment, seed: int, sheet: str = "sun", max_steps: int = 2000) -> Any:
    rnd = random.Random(seed)
    state, _ = new_game(players, seed=seed, sheet=sheet)
    for _ in range(max_steps):
        p = pending(state)
        if predicate(state, p):
            return {"sheet": state.sheet.to_json(), "state": GAME.view(state, None)["state"], "pending": p}
        if state.is_over:
            return None
        state, _ = apply(state, choose(rnd, state, legal_decisions(state)))
    return None


def main() -> None:
    load_sheet("sun")
    load_sheet("moon")
    OUT.mkdir(parents=True, exist_ok=True)
    for name, (players, predicate) in MOMENTS.items():
        for seed in range(1, 200):
            found = find(players, predicate, seed, SHEETS.get(name, "sun"))
            if found is not None:
                found["name"] = name
                found["seed"] = seed
                path = OUT / f"{name}.json"
                path.write_text(json.dumps(found, separators=(",", ":")) + "\n")
                print(f"{path.name}: seed {seed}, round {found['state']['round']}, {path.stat().st_size} bytes")
                break
        else:
            raise SystemExit(f"no game reached the moment {name!r}")


if __name__ == "__main__":
    main()
