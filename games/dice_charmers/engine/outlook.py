"""The expert bot's evaluation: how a sheet stands, in track spaces of overlap, now and by what its marks promise.

A sheet is worth its overlap (what the standings count) plus the worth of what it holds and can still turn into
overlap: goods not yet sold, karma, upgraded buildings still to erect, the roads' frontier, the river ahead and
the palace columns half crossed out. What it holds is worth less the fewer turns are left to use it, and nothing
once the player's last turn is over. Everything is read from the sheet's compiled tables, so custom sheets get
sensible values too. Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

import math
from typing import Final

from .effects import Effect
from .sheet import Sheet
from .state import PHASE_OVER, GameState, PlayerState

# The worth of an effect still to be carried out, in track spaces: what it brings on average when used.
BASE_WORTH: Final = {
    "fame": 0.6,  # per fame point (one space each early on the fame track, half a space later)
    "money": 0.45,  # per coin
    "karma": 1.0,
    "goods": 0.8,  # per good
    "goods_die": 1.6,
    "goods_choice": 0.85,  # per good
    "sell": 1.0,  # per good the sale may take
    "road": 2.2,
    "half_roads": 1.0,  # per half-road
    "half_road": 0.6,
    "river_symbol": 1.6,
    "river_forward": 1.6,
    "river_back": 1.0,
    "river_back_choice": 1.4,
    "palace": 1.6,
    "palace_any": 2.1,
    "upgrade": 1.5,
    "maharani": 1.9,
    "trader": 1.5,
    "portuguese": 1.2,
    "great_mogul": 1.9,
}


def worth(eff: Effect) -> float:
    """What an effect brings on average, in track spaces (context-free: used for what is still pending)."""
    kind = eff[0]
    base = BASE_WORTH.get(kind, 1.0)
    if kind in ("fame", "money", "karma", "goods_choice", "half_roads"):
        return base * float(eff[1])
    if kind == "goods":
        return base * float(sum(eff[1]))
    if kind == "sell":
        return base * float(eff[2])
    return base


class Weights:
    """The evaluation's weights: how much each promise of a sheet counts, in track spaces per unit."""

    __slots__ = (
        "edge",
        "frontier",
        "goods",
        "karma",
        "lead",
        "palace",
        "pending",
        "river",
        "turn_gain",
        "upgrade",
    )

    def __init__(
        self,
        goods: float = 0.55,
        karma: float = 1.0,
        upgrade: float = 0.35,
        frontier: float = 0.35,
        edge: float = 0.5,
        river: float = 0.45,
        palace: float = 0.4,
        pending: float = 1.0,
        turn_gain: float = 2.6,
        lead: float = 20.0,
    ) -> None:
        self.goods = goods  # per track space the owned goods would fetch if sold
        self.karma = karma  # per karma available
        self.upgrade = upgrade  # per fame point upgrades add to buildings still to erect
        self.frontier = frontier  # per track space the best spaces the roads reach would give
        self.edge = edge  # per track space of edge bonuses the roads reach
        self.river = river  # per track space of the river rewards ahead
        self.palace = palace  # per track space of the palace column bonuses in reach
        self.pending = pending  # per track space of effects still to be carried out this turn
        self.turn_gain = turn_gain  # track spaces a player gains in an ordinary turn
        self.lead = lead  # worth of winning, in track spaces, against the lead it takes (see `utility`)


class Tables:
    """A sheet's facts the evaluation reads often, worked out once per sheet."""

    def __init__(self, sheet: Sheet) -> None:
        self.sheet = sheet
        self.fame_pos = _positions(sheet.fame_values)
        self.money_pos = _positions(sheet.money_values)
        cells = sheet.rows * sheet.cols
        self.cells_of: tuple[tuple[int, ...], ...] = tuple(
            tuple(c for c in range(cells) if sheet.cell_building[c] == b) for b in range(len(sheet.buildings))
        )
        # Per cell: the worth of the edge bonuses a road there may reach, by slot.
        edges: list[tuple[tuple[int, float], ...]] = []
        for c in range(cells):
            found = []
            for i in range(4):
                slot = sheet.edge_slot[c][i]
                bonus = sheet.edge_bonus[slot] if slot >= 0 else None
                if bonus is not None:
                    found.append((slot, worth(bonus)))
            edges.append(tuple(found))
        self.edges = tuple(edges)
        self.river_worth = tuple(sum(worth(e) for e in reward) for reward in sheet.river_reward)
        self.column_worth = tuple(tuple(worth(b) for b in bonuses) for _, bonuses in sheet.areas)


def _positions(values: tuple[int, ...]) -> tuple[float, ...]:
    """Track position (in spaces, part way between two) of every total up to well past the track's end."""
    out = []
    last = len(values) - 1
    i = 0
    for v in range(values[last] + 80):
        if v >= values[last]:
            out.append(last + (v - values[last]) / (values[last] - values[last - 1]))
            continue
        while values[i + 1] <= v:
            i += 1
        out.append(i + (v - values[i]) / (values[i + 1] - values[i]))
    return tuple(out)


_tables: dict[str, Tables] = {}


def tables(sheet: Sheet) -> Tables:
    got = _tables.get(sheet.digest)
    if got is None:
        if len(_tables) >= 64:
            _tables.clear()
        got = _tables[sheet.digest] = Tables(sheet)
    return got


def _money_points(t: Tables, money: int, more: int) -> float:
    """Track spaces `more` coins move a player standing at `money`."""
    pos = t.money_pos
    top = len(pos) - 1
    return pos[min(money + more, top)] - pos[min(money, top)]


def promise(t: Tables, p: PlayerState, w: Weights) -> float:
    """What a sheet's marks promise beyond its overlap, in track spaces, with turns enough to use them."""
    return (
        goods_promise(t, p, w)
        + w.karma * (p.karma_gained - p.karma_used)
        + province_promise(t, p.roads, p.levels, p.edges_taken, w)
        + river_promise(t, p.river, w)
        + palace_promise(t, p.palace, w)
    )


def goods_promise(t: Tables, p: PlayerState, w: Weights) -> float:
    """Goods: what they would fetch, sold left to right."""
    prices = t.sheet.prices
    coins = 0
    for good in range(3):
        owned = p.circled[good] - p.sold[good]
        if owned:
            sold = p.sold[good]
            coins += sum(prices[sold : sold + owned])
    return w.goods * _money_points(t, p.money, coins) if coins else 0.0


def province_promise(t: Tables, roads: tuple[int, ...], levels: tuple[int, ...], taken: int, w: Weights) -> float:
    """Upgrades (extra fame on the few buildings of each type still to erect), the best spaces a road could be
    drawn on next, and the edge bonuses those reach."""
    s = t.sheet
    value = 0.0
    for b, cells in enumerate(t.cells_of):
        extra = levels[b] - 1
        if extra:
            left = 0
            for c in cells:
                if not roads[c]:
                    left += 1
            value += w.upgrade * 0.6 * extra * min(left, 3)
    allowed = s.allowed
    links = s.links
    best1 = best2 = best3 = 0.0
    edge_value = 0.0
    for cell in range(len(roads)):
        if roads[cell] or not allowed[cell]:
            continue
        reached = False
        for _, nb, back in links[cell]:
            if roads[nb] & back:
                reached = True
                break
        if not reached:
            continue
        b = s.cell_building[cell]
        v = 0.6 * levels[b] if b >= 0 else 1.2
        if v > best1:
            best1, best2, best3 = v, best1, best2
        elif v > best2:
            best2, best3 = v, best2
        elif v > best3:
            best3 = v
        for slot, ew in t.edges[cell]:
            if not taken >> slot & 1:
                edge_value += ew
    return value + w.frontier * (best1 + best2 + best3) + w.edge * min(edge_value, 6.0)


def river_promise(t: Tables, river: int, w: Weights) -> float:
    """The rewards of the next river spaces ahead, the nearest counting most."""
    pos = river.bit_length() - 1
    rw = t.river_worth
    value = 0.0
    decay = 1.0
    for i in range(pos + 1, min(pos + 4, len(rw))):
        value += decay * rw[i]
        decay *= 0.6
    return w.river * value


def palace_promise(t: Tables, palace: tuple[int, ...], w: Weights) -> float:
    """Each palace area's next column bonus, by how much of that column is crossed out."""
    s = t.sheet
    value = 0.0
    for a, (members, _) in enumerate(s.areas):
        low = min([palace[c] for c in members])
        if low < s.palace_uses:
            done = 0
            for c in members:
                if palace[c] > low:
                    done += 1
            value += t.column_worth[a][low] * (done + 1) / (len(members) + 1)
    return w.palace * value


class Promises:
    """`promise` for the many sheets one search values, each part worked out once for the marks it reads."""

    __slots__ = ("goods", "palace", "province", "river", "t", "w")

    def __init__(self, t: Tables, w: Weights) -> None:
        self.t = t
        self.w = w
        self.goods: dict[tuple[tuple[int, ...], tuple[int, ...], int], float] = {}
        self.province: dict[tuple[tuple[int, ...], tuple[int, ...], int], float] = {}
        self.river: dict[int, float] = {}
        self.palace: dict[tuple[int, ...], float] = {}

    def of(self, p: PlayerState) -> float:
        t, w = self.t, self.w
        key = (p.circled, p.sold, p.money)
        goods = self.goods.get(key)
        if goods is None:
            goods = self.goods[key] = goods_promise(t, p, w)
        key = (p.roads, p.levels, p.edges_taken)
        province = self.province.get(key)
        if province is None:
            province = self.province[key] = province_promise(t, p.roads, p.levels, p.edges_taken, w)
        river = self.river.get(p.river)
        if river is None:
            river = self.river[p.river] = river_promise(t, p.river, w)
        palace = self.palace.get(p.palace)
        if palace is None:
            palace = self.palace[p.palace] = palace_promise(t, p.palace, w)
        return goods + w.karma * (p.karma_gained - p.karma_used) + province + river + palace


def pending_worth(g: GameState) -> float:
    """Effects released or pushed this turn and not yet carried out (the player must still choose how)."""
    v = 0.0
    for eff in g.stack:
        v += worth(eff)
    for eff in g.pool:
        v += worth(eff)
    return v


def overlap_of(t: Tables, p: PlayerState) -> float:
    """A player's overlap (as `tracks.overlap`, in floats), read from the positions worked out for the sheet."""
    s = t.sheet
    fp, mp = t.fame_pos, t.money_pos
    return fp[min(p.fame, len(fp) - 1)] + mp[min(p.money, len(mp) - 1)] - s.track_length


def turns_to_come(g: GameState, seat: int, w: Weights, lead: float) -> float:
    """How many turns `seat` will still start from `g`: exact once the end is triggered, otherwise the turns left
    in this round plus the turns the leader (at `lead` overlap, promise counted) still needs to cross, at
    `turn_gain` spaces a turn (every player takes as many turns a round as the leader)."""
    if g.phase == PHASE_OVER:
        return 0.0
    order = g.order
    last = g.end_after if g.end_after >= 0 else len(order) - 1
    this_round = 0
    for i in range(g.turn, last + 1):
        if order[i] == seat:
            this_round += 1
    if g.end_after >= 0:
        return float(this_round)
    per_round = len(order) / g.n  # turns a player takes in a round
    return this_round + per_round * max(0.0, -lead) / (w.turn_gain * per_round)


def time_factor(turns: float) -> float:
    """How much of a sheet's promise can still be turned into overlap with this many turns to come."""
    return 1.0 - math.exp(-turns / 2.5)


class Judge:
    """Values the states a search reaches within one seat's turn. The other players' sheets do not change in
    that turn, so what they hold is worked out once."""

    __slots__ = ("others", "promises", "round", "seat", "t", "turn", "w")

    def __init__(self, g: GameState, seat: int, w: Weights) -> None:
        self.t = tables(g.sheet)
        self.w = w
        self.seat = seat
        self.turn = g.turn  # the turn being played (its own decisions come before its end)
        self.round = g.round
        self.promises = Promises(self.t, w)
        self.others = tuple(
            (s, overlap_of(self.t, p), promise(self.t, p, w)) for s, p in enumerate(g.players) if s != seat
        )

    def utility(self, g: GameState) -> float:
        """How good `g` is for the seat: its expected lead at the end over the best of the others, plus the
        worth of winning weighed by the chance of being ahead then (which counts most when the end is near)."""
        t, w, seat = self.t, self.w, self.seat
        p = g.players[seat]
        mine_now = overlap_of(t, p)
        if g.phase == PHASE_OVER:
            assert g.result is not None
            winners = [r["seat"] for r in g.result if r["winner"]]
            best = max(o for _, o, _ in self.others)
            return mine_now - best + (w.lead / len(winners) if seat in winners else 0.0)
        mine_promise = self.promises.of(p)
        lead = mine_now + 0.5 * mine_promise
        for _, o, pr in self.others:
            lead = max(lead, o + 0.5 * pr)
        left = turns_to_come(g, seat, w, lead)
        if g.current == seat and g.turn == self.turn and g.round == self.round:
            left -= 1.0  # in the middle of the turn being played: that turn is not one to come
        mine = mine_now + time_factor(left) * mine_promise + w.turn_gain * left
        spread = left
        best_other = -1e9
        for s, o, pr in self.others:
            other_left = turns_to_come(g, s, w, lead)
            est = o + time_factor(other_left) * pr + w.turn_gain * other_left
            spread += other_left
            if est > best_other:
                best_other = est
        # The turns still to be played make the outcome the less certain.
        sigma = 2.0 + 2.0 * math.sqrt(spread)
        chance = 1.0 / (1.0 + math.exp(-(mine - best_other) / sigma))
        return mine - best_other + w.lead * chance


__all__ = ["Judge", "Tables", "Weights", "pending_worth", "promise", "tables", "worth"]
