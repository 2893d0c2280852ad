// Events -> readable log lines in the player's language. describe(event, ctx) returns
// {text, seat, kind} or null for events that are not worth a line (turn bookkeeping).
//   ctx: {lang, names: [seat names], sheet (the sheet file), seatIds: {id: name}}

import { t } from "./i18n.js";
import { effectBonus, bonusLabel, GOODS, CHARACTERS } from "./icons.js";
import { tookBackLine } from "./undo.js";

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

function symbols(sheet) {
  return sheet ? [...new Set(sheet.river.spaces.map((s) => s.symbol))] : null;
}

function bonusText(bonus, ctx) {
  try {
    return bonusLabel(effectBonus(bonus), ctx.lang, symbols(ctx.sheet));
  } catch {
    return String(bonus?.[0] ?? "?");
  }
}

export function describe(e, ctx) {
  const lang = ctx.lang;
  const p = e.player !== undefined && e.player !== null ? ctx.names[e.player] ?? `#${e.player}` : "";
  const L = (key, vars = {}) => t(key, lang, { p, ...vars });
  const line = (text, kind = e.type) => ({ text, seat: e.player ?? null, kind });
  switch (e.type) {
    case "seat_taken": return { text: t("l_seat_taken", lang, { p: e.name }), seat: e.seat, kind: e.type };
    case "seat_left": return { text: t("l_seat_left", lang, { p: e.name }), seat: null, kind: e.type };
    case "kicked": return { text: t("l_kicked", lang, { p: e.name }), seat: null, kind: e.type };
    // who holds a seat during play (away.js, device.js, takeover.js)
    case "away": return line(L("l_away"), "minor");
    case "back": return line(L("l_back"), "minor");
    case "left_game": return line(L("l_left_game", { p: e.name }), "big");
    case "seat_moved": return line(L("l_seat_moved"), "minor");
    case "seat_taken_over": return line(L("l_seat_taken_over", { p: e.name, q: e.left_name }), "big");
    case "settings_changed": return { text: t("l_settings", lang), seat: null, kind: e.type };
    case "rematch": return { text: t("l_rematch", lang, { n: e.game }), seat: null, kind: "big" };
    case "bot_added": return { text: t("l_bot_added", lang, { p: e.name, k: t(`bot_${e.kind}`, lang) }), seat: e.seat, kind: e.type };
    case "bot_removed": return { text: t("l_bot_removed", lang, { p: e.name }), seat: null, kind: e.type };
    case "host_changed": return e.host ? { text: t("l_host", lang, { p: ctx.seatIds?.[e.host] ?? "?" }), seat: null, kind: e.type } : null;
    case "game_starting": return line(L("l_game_starting", { n: e.players }), "big");
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
    case "building_erected": return line(L("l_building_erected", { b: t(ctx.sheet?.upgrades?.buildings?.[e.building] ?? String(e.building), lang), n: e.fame }));
    case "market_opened": return line(L("l_market_opened"));
    case "river_marked": return line(L("l_river_marked", { n: e.space + 1 }));
    case "palace_crossed": return line(L("l_palace_crossed", { c: t(CHARACTERS[e.character] ?? String(e.character), lang) }));
    case "upgraded": return line(L("l_upgraded", { b: t(ctx.sheet?.upgrades?.buildings?.[e.building] ?? String(e.building), lang), n: e.level }));
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
    case "bot_took_over": return line(L("l_bot_took_over"), "big");
    case "bot_released": return line(L("l_bot_released"));
    case "clock_expired": return line(L("l_clock_expired"), "big");
    case "took_back": return tookBackLine(e, ctx);
    case "seed_revealed": return { text: t("l_seed_revealed", lang), seat: null, kind: "minor" };
    default: return null; // decided, turn_started, turn_ended, bonus_used: shown through their effects
  }
}
