// The Dice Charmers' bonuses in words: a bonus of the sheet file or an engine effect named in the player's language
// ("Sell 1-2 goods", "Road: Fork"), and the game's goods and palace characters. The icons (icons.js) draw the same
// bonuses; the log, the panel and the help name them.

import { t } from "/i18n.js";

export const GOODS = ["tea", "silk", "spices"];
export const CHARACTERS = ["great_mogul", "maharani", "trader", "raja_man_singh", "master_builder", "portuguese"];

// The engine's shape bits (effects.py): straight 1, bend 2, fork 4, intersection 8; a road bonus is one
// printed shape, or any of straight, fork and intersection (13) on sheets that print none.
const SHAPE_BITS = [[1, "straight"], [2, "bend"], [4, "fork"], [8, "intersection"]];
const ROAD_SHAPE_OF = { 13: "any", 4: "fork", 8: "intersection" };
// A road bonus's shape drawn as arms: straight N-S, fork E-S-W, intersection all four.
export const ROAD_SHAPE_ARMS = { straight: 5, fork: 14, intersection: 15 };

// How many goods a sell bonus sells: {lo, hi}. A sheet's `count` is exact, its `max` is 1 up to max;
// an engine effect carries both ends (lo 0: selling is optional, as at a newly opened market).
export function sellRange(b) {
  if (b.count != null) return { lo: b.count, hi: b.count };
  if (b.min != null) return { lo: b.min, hi: b.max };
  return { lo: 1, hi: b.max };
}

// The count as printed: "2" (exactly), "1-2" (a range), "≤3" (up to, nothing also allowed).
export function sellText({ lo, hi }) {
  if (lo === hi) return `${hi}`;
  return lo === 0 ? `≤${hi}` : `${lo}-${hi}`;
}

const capitalise = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// Engine effect tuple (pending.effect / pending.pool) -> a bonus-like object the icons understand.
export function effectBonus(eff) {
  if (!eff || !eff.length) return { kind: "bonus" };
  const [k, a, b] = eff;
  switch (k) {
    case "fame": case "money": case "karma": return { kind: k, amount: a };
    case "palace": return { kind: "palace", character: CHARACTERS[a] };
    case "goods": return { kind: "goods", counts: a };
    case "goods_choice": return { kind: "goods_choice", count: a };
    case "sell": return { kind: "sell", mode: a, max: b, min: eff[3] };
    case "road": return ROAD_SHAPE_OF[a] ? { kind: "road", shape: ROAD_SHAPE_OF[a] } : { kind: "road_shapes", shapes: a };
    case "half_roads": return { kind: "half_roads", n: a };
    case "river_symbol": return { kind: "river_symbol", symbol: a };
    case "great_mogul": case "maharani": case "trader": case "portuguese":
      return { kind: "character_action", character: k };
    default: return { kind: k };
  }
}

// The river's goods symbols of a sheet, in order, for the labels of bonuses that name "a good of the river".
export function symbolsOf(sheet) {
  return [...new Set(sheet.river.spaces.map((s) => s.symbol))];
}

export function bonusLabel(b, lang, symbols) {
  switch (b.kind) {
    case "fame": case "money": return t(`b_${b.kind}`, lang, { n: b.amount });
    case "karma": return b.amount > 1 ? `${b.amount} × ${t("b_karma", lang)}` : t("b_karma", lang);
    case "palace": return t("b_palace", lang, { c: t(b.character, lang) });
    case "goods": {
      const counts = b.counts || GOODS.map((g) => (b.goods || []).filter((x) => x === g).length);
      return `${t("b_goods", lang)}: ${counts.map((n, i) => (n ? `${n} ${t(GOODS[i], lang)}` : "")).filter(Boolean).join(", ")}`;
    }
    case "goods_choice": return t("b_goods_choice", lang, { n: b.count });
    case "sell": {
      const range = sellRange(b);
      if (range.hi === 1 && range.lo === 1) return t("b_sell_1", lang);
      const n = range.lo === 0 ? t("n_up_to", lang, { n: range.hi }) : sellText(range);
      return capitalise(t(`b_sell_${b.mode}`, lang, { n }));
    }
    case "road": return b.shape && b.shape !== "any" ? `${t("b_road_shapes", lang)}: ${t(b.shape, lang)}` : t("b_road", lang);
    case "road_shapes": return `${t("b_road_shapes", lang)}: ${SHAPE_BITS.filter(([bit]) => b.shapes & bit).map(([, n]) => t(n, lang)).join(" / ")}`;
    case "river_symbol": return t("b_river_symbol", lang, { s: t(symbols ? symbols[b.symbol] : String(b.symbol), lang) });
    case "character_action": return t(`b_${b.character}`, lang);
    default: return t(`b_${b.kind}`, lang);
  }
}

