"""The deal, recomputed from the words of docs/card-game/rules-decisions.md alone ("How the deal is derived"),
with the shared generator's `roll` (docs/fairness.md)."""

from __future__ import annotations

from rajas.games.card_game.engine import Options, catalogue, new_game
from rajas.games.rng import roll, seed_to_state


def fisher_yates(state: int, items: list[int]) -> tuple[int, list[int]]:
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        state, j = roll(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state, items


def deal_by_the_document(players: int, seed: str, contributions: list[str]) -> dict[str, object]:
    cat = catalogue()
    state = seed_to_state(seed, contributions)
    state, start = roll(state, players)  # 1. the start player
    numbers = [0] * 144
    for colour in range(4):  # 2. the numbers, colour by colour: purple, green, blue, orange
        state, pool = fisher_yates(state, [n for n in range(1, 7) for _ in range(6)])
        for card, number in zip([c for c in range(144) if cat.colour[c] == colour], pool, strict=True):
            numbers[card] = number
    state, deck = fisher_yates(state, list(range(144)))  # 3. the deck, index 0 on top
    tracks = []
    for _ in range(players):  # 4. each seat's score track, seat 0 first
        state, track = fisher_yates(state, list(range(6)))
        tracks.append(track)
    hands: list[list[int]] = [[] for _ in range(players)]
    for _ in range(4):  # 5. four rounds of one card each, from the start player on
        for i in range(players):
            hands[(start + i) % players].append(deck.pop(0))
    size = {2: 12, 3: 16, 4: 20}[players]
    return {"start": start, "numbers": numbers, "tracks": tracks, "hands": hands, "offer": deck[:size],
            "draw": deck[size:], "rng": state}


def test_the_deal_is_exactly_what_the_rules_decisions_document_says() -> None:
    for players in (2, 3, 4):
        contributions = [f"c{i}" for i in range(players)]
        g, _ = new_game(players, "verifiable", contributions)
        want = deal_by_the_document(players, "verifiable", contributions)
        assert g.start_player == want["start"]
        assert list(g.numbers) == want["numbers"]
        assert [list(p.track) for p in g.players] == want["tracks"]
        assert [list(p.hand) for p in g.players] == want["hands"]
        assert list(g.offer) == want["offer"] and list(g.draw) == want["draw"] and g.rng == want["rng"]


def test_a_given_start_player_draws_nothing_for_it() -> None:
    g, _ = new_game(2, "fixed", options=Options(start_player=1))
    assert g.start_player == 1
