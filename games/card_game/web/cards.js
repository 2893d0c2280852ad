// The card game's cards in words and as small drawings: an action side (what it is, its numbers, the colour in its
// corner), a die (a hand card's dice side: colour and number), and every decision of the engine as a sentence. The
// card list is the room's component (`frame.sheet.cards`, public: the numbers are paired per game by the deal).

import { h } from "/ui.js";
import { t, plural } from "/i18n.js";

// The score-track cards' rewards, in the engine's order (a "place" decision names one by its index).
const TRACK = ["karma2", "coins2_or_palace", "fame_or_ship", "manager", "dice2", "extra_turn"];

export const cardOf = (frame, id) => frame.sheet?.cards?.[id] || null;

// A card's action side in a few words: "Ship 17", "Palace 4", "Silk 1 + Tea 2", "Red building (3 green)".
export function cardName(card, lang) {
  if (!card) return "?";
  const L = (k, v) => t(k, lang, v);
  const goods = (list) => (list || []).map((g) => `${L(`cg_${g.good}`)} ${g.value}`).join(" + ");
  if (card.kind === "ship") return L("cg_ship_n", { n: card.number });
  if (card.kind === "palace") return L("cg_palace_n", { n: card.action });
  if (card.kind === "goods") return goods(card.goods) + (card.coin ? ` (+${card.coin} ${L("cg_coin_short")})` : "");
  const b = card.buildings.map((x) => L(`cg_b_${x}`)).join(" + ");
  return L("cg_building_cost", { b, v: card.cost.value, c: L(`cg_c_${card.cost.colour}`) }) + (card.goods?.length ? ` + ${goods(card.goods)}` : "");
}

// What a card does or gives, said once in full (a card's title and accessible name).
export function cardDetail(card, lang) {
  if (!card) return "";
  const L = (k, v) => t(k, lang, v);
  if (card.kind === "ship") return `${L("cg_ship_n", { n: card.number })}: ${L("cg_ship_cost", { n: card.cost })}, ${L(`cg_sr_${card.reward}`)}`;
  if (card.kind === "palace") return `${L("cg_palace_n", { n: card.action })}: ${L(`cg_pa_${card.action}`)}`;
  return cardName(card, lang);
}

// A die's name: "Blue 5" (the number null when it is hidden).
export function dieName(colour, number, lang) {
  const c = t(`cg_c_${colour}`, lang);
  return number ? `${c} ${number}` : c;
}

// The colour marker of a card's corner (its dice side's colour, shown on the action side).
export const corner = (colour, lang) => h("span", { class: `cg-corner cg-${colour}`, title: t(`cg_c_${colour}`, lang), "aria-hidden": "true" });

// A die drawn as a small square with its number.
export const dieFace = (colour, number, lang) => h("span", { class: `cg-die cg-${colour}`, title: dieName(colour, number, lang), "aria-hidden": "true" }, number ? String(number) : "?");

// The dice of a payment: cards of the own hand, each "Blue 5 (Ship 8)" (two dice alike are told apart by their
// action sides); -1 or jokers: a manager's joker.
function paid(frame, cards, jokers) {
  const lang = frame.lang;
  const hand = new Map((frame.game.state.seats[frame.me]?.hand || []).filter((x) => typeof x === "object").map((x) => [x.card, x.number]));
  const parts = cards.map((c) => (c === -1 ? t("cg_joker", lang) : `${dieName(cardOf(frame, c)?.colour, hand.get(c), lang)} (${cardName(cardOf(frame, c), lang)})`));
  for (let i = 0; i < jokers; i++) parts.push(t("cg_joker", lang));
  return parts.join(" + ");
}

// One option (the engine's wire form [kind, [args]]) as a sentence, for a button's text and name.
export function optionText(frame, option) {
  const [kind, args] = option;
  const { lang } = frame;
  const L = (k, v) => t(k, lang, v);
  const name = (id) => cardName(cardOf(frame, id), lang);
  const pending = frame.game.pending;
  switch (kind) {
    case "dice": return L("cg_o_dice", { c: name(args[0]) });
    case "building": return L("cg_o_building", { c: name(args[0]), p: paid(frame, args.slice(2), args[1]) });
    case "ship": return L("cg_o_ship", { c: name(args[0]), p: paid(frame, [args[1]], 0) });
    case "goods": return L("cg_o_goods", { c: name(args[0]) });
    case "palace": return L("cg_o_palace", { c: name(args[0]), p: paid(frame, [args[1]], 0) });
    case "draw": return L("cg_o_draw");
    case "extra": return L("cg_o_extra");
    case "end": return L("cg_o_end");
    case "pass": return L("cg_o_pass");
    case "discard": return L("cg_o_discard", { c: paid(frame, args, 0) });
    case "take": return L("cg_o_take", { c: name(args[0]) });
    case "copy": return L("cg_o_copy", { p: frame.names[args[0]] ?? "?" });
    case "place": return L("cg_o_place", { r: L(`cg_tr_${TRACK[args[0]]}`) });
    case "choose": {
      if (pending.kind === "track_choice") return L(`cg_choose_${pending.reward}_${args[0]}`);
      const set = pending.threes?.[args[0]] || [];
      return set.map((e) => threeText(e, lang)).join(" + ") || L("cg_o_choose", { n: args[0] + 1 });
    }
    default: return `${kind} ${args.join(" ")}`;
  }
}

// One three-of-a-kind effect in words: what it sets off and what it gives.
export function threeText(e, lang) {
  const what = e.what ? t(e.kind.startsWith("goods") ? `cg_${e.what}` : `cg_b_${e.what}`, lang) : "";
  const gives = [e.coins ? plural("cg_coins_n", lang, e.coins) : "", e.managers ? plural("cg_managers_n", lang, e.managers) : ""].filter(Boolean).join(", ");
  return `${t(`cg_three_${e.kind}`, lang, { w: what })} → ${gives}`;
}
