// The log's lines for the Dice Charmers' events (the engine's, and a decision taken back): describe(event, ctx)
// returns {text, seat, kind}, or null for an event that is not the game's or is not worth a line (turn bookkeeping,
// shown through its effects). ctx: {lang, names: [seat names], sheet: the sheet file}.

import { t } from "/i18n.js";
import { CHARACTERS, GOODS, bonusLabel, effectBonus, symbolsOf } from "./labels.js";

function dieName(ctx, die, face) {
  const d = ctx.sheet?.dice?.[die];
  if (!d) return `#${die}`;
  const f = d.faces[face];
  const faceText = Array.isArray(f) ? f.map((x) => t(x, ctx.lang)).join(" + ") : t(String(f), ctx.lang);
  return `${t(d.colour, ctx.lang)} (${faceText})`;
}

function goodsText(counts, lang) {
  return counts.map((n, i) => (n ? `${n} ${t(GOODS[i], lang)}` : "")).filter(Boolean).join(", ") || "–";
}

function bonusText(bonus, ctx) {
  try {
    return bonusLabel(effectBonus(bonus), ctx.lang, ctx.sheet ? symbolsOf(ctx.sheet) : null);
  } catch {
    return String(bonus?.[0] ?? "?");
  }
}

const building = (ctx, i) => t(ctx.sheet?.upgrades?.buildings?.[i] ?? String(i), ctx.lang);

export function describe(e, ctx) {
  const lang = ctx.lang;
  const p = e.player !== undefined && e.player !== null ? ctx.names[e.player] ?? `#${e.player}` : "";
  const L = (key, vars = {}) => t(key, lang, { p, ...vars });
  const line = (text, kind = e.type) => ({ text, seat: e.player ?? null, kind });
  switch (e.type) {
    case "game_started": return { text: t("l_game_started", lang, { p: ctx.names[e.start_player] }), seat: e.start_player, kind: e.type };
    case "round_started": return { text: t("l_round_started", lang, { n: e.round }), seat: null, kind: "round" };
    case "dice_rolled": return line(L("l_dice_rolled"));
    case "die_picked": return line(L("l_die_picked", { die: dieName(ctx, e.die, e.face) }));
    case "elephant_loaded": return line(L("l_elephant_loaded", { die: dieName(ctx, e.die, e.face) }), "minor");
    case "karma_rolled": return line(L("l_karma_rolled", { dice: e.dice.map((d, i) => dieName(ctx, d, e.faces[i])).join(" & "), n: e.karma_left }), "karma");
    case "die_kept": return line(L("l_die_kept", { die: dieName(ctx, e.die, e.face) }));
    case "goods_gained": return line(L("l_goods_gained", { goods: goodsText(e.goods, lang) }));
    case "goods_sold": return line(L("l_goods_sold", { goods: goodsText(e.goods, lang), n: e.money }));
    case "road_drawn": return line(L("l_road_drawn", { shape: t(e.shape, lang) }));
    case "half_road_drawn": return line(L("l_half_road_drawn"));
    case "building_erected": return line(L("l_building_erected", { b: building(ctx, e.building), n: e.fame }));
    case "market_opened": return line(L("l_market_opened"));
    case "river_marked": return line(L("l_river_marked", { n: e.space + 1 }));
    case "palace_crossed": return line(L("l_palace_crossed", { c: t(CHARACTERS[e.character] ?? String(e.character), lang) }));
    case "upgraded": return line(L("l_upgraded", { b: building(ctx, e.building), n: e.level }));
    case "fame": return e.amount ? line(L("l_fame", { n: e.amount, t: e.total }), "fame") : null;
    case "money": return e.amount ? line(L("l_money", { n: e.amount, t: e.total }), "money") : null;
    case "karma": return e.amount ? line(L("l_karma", { n: e.amount }), "karma") : null;
    case "bonus_released": return line(L("l_bonus_released", { b: bonusText(e.bonus, ctx) }), "minor");
    case "bonus_wasted": return line(L("l_bonus_wasted", { b: bonusText(e.bonus, ctx) }), "minor");
    case "turn_passed": return line(L("l_turn_passed"));
    case "round_ended": return { text: t("l_round_ended", lang, { n: e.round }), seat: null, kind: "round" };
    case "elephant_passed": return line(L("l_elephant_passed"));
    case "game_end_triggered": return line(L("l_game_end_triggered"), "big");
    case "game_over": {
      const winners = (e.result || []).filter((r) => r.winner).map((r) => ctx.names[r.seat]);
      return { text: t(winners.length > 1 ? "l_game_over_shared" : "l_game_over", lang, { p: winners.join(" & ") }), seat: null, kind: "big" };
    }
    case "took_back": {
      // the decision's kind says what was taken back ("Anna took back a road")
      const kind = Array.isArray(e.decision) ? e.decision[0] : "";
      const known = t(`undo_what_${kind}`, lang) !== `undo what ${kind}`;
      return { text: L(known ? "l_took_back_what" : "l_took_back", { what: t(`undo_what_${kind}`, lang) }), seat: e.player ?? null, kind: "undo" };
    }
    default: return null;
  }
}
