"""The final scores say why a game ended without a crossing: the server's round limit (in each language)."""

from __future__ import annotations

from typing import Any

import pytest
from web_helpers import open_demo

SHOW = """async ([lang, crossed]) => {
    const { h, render } = await import('/ui.js');
    const { loadWords } = await import('/i18n.js');
    const { SEAT_COLOURS } = await import('/glyphs.js');
    const { summary } = await import('/play/dice_charmers/summary.js');
    await loadWords(lang);
    const row = (seat, overlap, rank) => ({ seat, fame: 10, money: 20, overlap, crossed: crossed && rank === 1,
        karma_gained: 1, karma_used: 0, rank, winner: rank === 1, ahead_by: rank === 1 ? 'overlap' : undefined });
    const frame = { lang, names: ['Ann', 'Bo'], colours: SEAT_COLOURS, me: null,
        game: { state: { round: 100, result: [row(0, crossed ? 1.5 : -3.5, 1), row(1, -9, 2)] } } };
    const box = document.createElement('div');
    render(summary(frame).scores, box);
    const note = box.querySelector('[data-ended=round_limit]');
    return note ? note.textContent : null;
}"""


@pytest.mark.parametrize(("lang", "word"), [("en", "limit"), ("nl", "limiet"), ("de", "Grenze")])
def test_a_game_nobody_crossed_in_says_it_stopped_at_the_round_limit(
    page: Any, base_url: str, lang: str, word: str
) -> None:
    open_demo(page, base_url, "start", lang)
    text = page.evaluate(SHOW, [lang, False])
    assert text is not None and word in text and "100" in text
    assert page.console_errors == []


def test_a_game_that_ended_by_a_crossing_says_nothing_of_a_limit(page: Any, base_url: str) -> None:
    open_demo(page, base_url, "start")
    assert page.evaluate(SHOW, ["en", True]) is None
    assert page.console_errors == []
