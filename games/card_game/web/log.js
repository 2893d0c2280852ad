// The log's lines for the card game's events: describe(event, ctx) -> {text, seat, kind}, or null for bookkeeping not
// worth a line. ctx: {lang, names, sheet: the card list}. A hand's dice sides are never written here: the events a
// page receives carry them only for its own seat, and the line names the action side alone.

import { t, plural } from "/i18n.js";
import { cardName, threeText } from "./cards.js";

export function describe(e, ctx) {
  const lang = ctx.lang;
  const p = e.player !== undefined && e.player !== null ? ctx.names[e.player] ?? `#${e.player}` : "";
  const card = (id) => cardName(ctx.sheet?.cards?.[id], lang);
  const L = (key, vars = {}) => t(key, lang, { p, ...vars });
  const line = (text, kind = e.type) => ({ text, seat: e.player ?? null, kind });
  switch (e.type) {
    case "game_started": return { text: t("cg_l_started", lang, { p: ctx.names[e.start_player] ?? "?" }), seat: e.start_player, kind: e.type };
    case "round_started": return { text: t("cg_l_round", lang, { n: e.round }), seat: null, kind: "round" };
    case "took_die": return line(L(e.from === "offer" ? "cg_l_took_die" : "cg_l_took_die_pile", { c: e.from === "offer" ? card(e.card) : "" }));
    case "building_placed": return line(L("cg_l_building", { c: card(e.card) }));
    case "ship_placed": return line(L("cg_l_ship", { n: e.ship }));
    case "goods_placed": return line(L("cg_l_goods", { c: card(e.card) }));
    case "palace_action": return line(L("cg_l_palace", { n: e.action, w: t(`cg_pa_${e.action}`, lang) }));
    case "top_card_taken": return line(L("cg_l_top_card", { c: card(e.card) }));
    case "ship_copied": return line(L("cg_l_copied", { q: ctx.names[e.from] ?? "?", c: card(e.card) }));
    case "gained": return e.amount ? line(L(`cg_l_gained_${e.what}`, { n: e.amount }), e.what) : null;
    case "manager_gained": return line(L("cg_l_manager"));
    case "manager_used": return line(L(`cg_l_manager_${e.use}`), "minor");
    case "no_manager_left": return line(L("cg_l_no_manager"), "minor");
    case "track_turned": return line(L("cg_l_track", { r: t(`cg_tr_${e.reward}`, lang), b: t(`cg_by_${e.by}`, lang) }));
    case "track_card_placed": return line(L("cg_l_track_placed"), "minor");
    case "three_of_a_kind": return line(L("cg_l_three", { w: e.effects.map((x) => threeText(x, lang)).join("; ") }));
    case "karma_three": case "managers_three": return line(L(`cg_l_${e.type}`));
    case "extra_turn_won": return line(L("cg_l_extra_turn"));
    case "startifant_turned": return line(L("cg_l_startifant"), "minor");
    case "discarded": return e.reason === "hand_limit" ? line(plural("cg_l_discarded", lang, e.cards.length, { p })) : null;
    case "reshuffled": return { text: t("cg_l_reshuffled", lang, { n: e.cards }), seat: null, kind: "minor" };
    case "nothing_to_take": return line(L("cg_l_nothing"), "minor");
    case "game_end_triggered": return line(L("cg_l_end_triggered"), "big");
    case "game_over": return { text: t("cg_l_over", lang), seat: null, kind: "round" };
    default: return null;
  }
}
