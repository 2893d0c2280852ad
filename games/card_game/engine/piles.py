"""The draw pile, the discard pile and the open offer: moving cards between them, and what each move shows."""

from __future__ import annotations

from typing import Any

from .cards import catalogue
from .deal import shuffle
from .state import Work

SMALL_OFFER = 4  # "worden de bovenste vier kaarten van de trekstapel genomen en als een nieuw (klein) raster"


def shown(w: Work, cards: list[int]) -> list[dict[str, Any]]:
    """Cards with their dice side, as events show a dice side: {"card": id, "number": n}."""
    return [{"card": c, "number": w.numbers[c]} for c in cards]


def reshuffle(w: Work) -> None:
    """The discard pile, shuffled (deal.shuffle, from the bottom card up), becomes the draw pile."""
    w.rng, cards = shuffle(w.rng, w.discard)
    w.draw = cards + w.draw
    w.discard = []
    w.emit({"type": "reshuffled", "cards": len(w.draw), "top": w.draw[0]})


def keep_top_in_sight(w: Work) -> None:
    """"Als de trekstapel uitgeput is, dan wordt de aflegstapel geschud": at once, so a top card shows."""
    if not w.draw and w.discard:
        reshuffle(w)


def draw_top(w: Work) -> int | None:
    """Takes the draw pile's top card (None: no card is left anywhere to draw)."""
    keep_top_in_sight(w)
    if not w.draw:
        return None
    card = w.draw.pop(0)
    keep_top_in_sight(w)
    return card


def to_discard(w: Work, cards: list[int], reason: str, player: int | None = None) -> None:
    """Cards onto the discard pile, dice side up: everyone sees their numbers from now on."""
    if not cards:
        return
    w.discard.extend(cards)
    event: dict[str, Any] = {"type": "discarded", "reason": reason, "cards": shown(w, cards)}
    if player is not None:
        event["player"] = player
    w.emit(event)


def lay_out(w: Work, count: int, reason: str) -> None:
    """`count` cards from the draw pile into the offer, action side up."""
    laid: list[int] = []
    for _ in range(count):
        card = draw_top(w)
        if card is None:
            break
        laid.append(card)
    w.offer.extend(laid)
    if laid:
        w.emit({"type": "offer_laid", "reason": reason, "cards": laid})


def take_from_offer(w: Work, card: int) -> None:
    w.offer.remove(card)


def ensure_offer(w: Work) -> None:
    """An offer used up is laid out anew with four cards when a card is next wanted from it (a turn begins, or
    a reward takes one): "zodat je verder kunt spelen"."""
    if not w.offer:
        lay_out(w, SMALL_OFFER, "offer_empty")


def refill_offer(w: Work) -> None:
    """At a round's end the offer is filled up again to 12/16/20 cards."""
    size = catalogue().offer_size[w.n]
    if len(w.offer) < size:
        lay_out(w, size - len(w.offer), "round")
