"""The dice generator of docs/fairness.md: the published test vectors, written again here from the document's
words, and the rule that every seat's contribution steers the dice."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from rajas.games.dice_charmers.engine import new_game
from rajas.games.rng import (
    DICE_VERSION,
    bot_contribution,
    dice_key,
    next_u64,
    roll,
    roll_many,
    seed_to_state,
    state_from_wire,
    state_to_wire,
)

VECTORS = json.loads((Path(__file__).resolve().parents[2] / "docs" / "dice-vectors.json").read_text())
CASES = VECTORS["cases"]


def _from_the_document(seed: str, contributions: list[str], draws: int) -> list[int]:
    """docs/fairness.md, step by step, without the engine: key, then SHA-256(key || counter) per value."""
    key = hashlib.sha256(("rajas-dice/2\n" + seed + "".join("\n" + c for c in contributions)).encode()).digest()
    return [int.from_bytes(hashlib.sha256(key + i.to_bytes(8, "big")).digest()[:8], "big") for i in range(draws)]


def test_the_vectors_name_this_generator() -> None:
    assert VECTORS["generator"] == DICE_VERSION
    assert len(CASES) >= 4 and any(len(c["contributions"]) == 5 for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["seed"][:8])
def test_the_engine_gives_the_published_values(case: dict[str, object]) -> None:
    seed, contributions = str(case["seed"]), list(case["contributions"])  # type: ignore[call-overload]
    assert hashlib.sha256(seed.encode()).hexdigest() == case["commitment"]
    assert dice_key(seed, contributions).hex() == case["key"]
    state = seed_to_state(seed, contributions)
    values = []
    for _ in range(4):
        state, v = next_u64(state)
        values.append(f"{v:016x}")
    assert values == case["u64"]
    assert [int(v, 16) for v in values] == _from_the_document(seed, contributions, 4)
    state = seed_to_state(seed, contributions)
    rolls = []
    for r in case["rolls"]:  # type: ignore[attr-defined]
        state, faces = roll_many(state, r["sides"], len(r["faces"]))
        rolls.append({"sides": r["sides"], "faces": faces})
    assert rolls == case["rolls"]
    assert state_to_wire(state) == case["state_after"] and state_from_wire(state_to_wire(state)) == state


def test_a_bots_contribution_is_the_published_one() -> None:
    for b in VECTORS["bot_contributions"]:
        assert bot_contribution(b["seed"], b["seat"]) == b["value"]


def test_roll_and_roll_many_draw_the_same_faces() -> None:
    state = seed_to_state("x" * 64, ["1" * 64, "2" * 64])
    one_by_one = []
    s = state
    for _ in range(20):
        s, face = roll(s, 6)
        one_by_one.append(face)
    assert roll_many(state, 6, 20) == (s, one_by_one)


def test_the_state_holds_a_256_bit_key_and_a_counter() -> None:
    state = seed_to_state("seed")
    assert state >> 64 == int.from_bytes(dice_key("seed"), "big") and state & ((1 << 64) - 1) == 0
    assert next_u64(state)[0] == state + 1


SEED = hashlib.sha256(b"a seed").hexdigest()
VALUES = [hashlib.sha256(f"player {i}".encode()).hexdigest() for i in range(4)]


def _start(contributions: list[str]) -> tuple[int, list[object]]:
    state, events = new_game(len(contributions), SEED, contributions=contributions)
    return state.start_player, [e["faces"] for e in events if e["type"] == "dice_rolled"]


@pytest.mark.parametrize("seat", range(4))
def test_changing_any_one_contribution_changes_the_rolls(seat: int) -> None:
    changed = list(VALUES)
    changed[seat] = hashlib.sha256(b"another value").hexdigest()
    assert _start(changed) != _start(VALUES)


def test_the_seed_and_the_order_of_contributions_steer_the_rolls_too() -> None:
    assert _start(VALUES) == _start(list(VALUES))  # and the same inputs give the same game
    assert _start(VALUES[::-1]) != _start(VALUES)
    other_seed = new_game(4, "0" * 64, contributions=VALUES)[1]
    assert [e["faces"] for e in other_seed if e["type"] == "dice_rolled"] != _start(VALUES)[1]
