// What an update tells besides the new state: the flash of every changed part, a bonus that had to be wasted,
// and round and game-end news (said in the bar, read out by screen readers).

import { bonusLabel, effectBonus, symbolsOf } from "./icons.js";

// Which elements of a player's sheet an event changed (for the flash animation).
function changed(e) {
  switch (e.type) {
    case "road_drawn": case "half_road_drawn": case "building_erected": case "market_opened":
      return [`.province-space[data-space="${e.cell}"]`];
    case "river_marked": return [`.river-space[data-space="${e.space}"]`];
    case "palace_crossed": return [`.palace-row[data-character="${e.character}"]`];
    case "goods_gained": case "goods_sold": return [".market-row"];
    case "upgraded": return [`.upgrade-row[data-building="${e.building}"]`];
    case "fame": return [".fame-marker"];
    case "money": return [".money-marker"];
    case "karma": case "karma_rolled": return [".karma-space.gained"];
    default: return [];
  }
}

const FLASH = [
  { filter: "drop-shadow(0 0 0 #ffb300)" },
  { filter: "drop-shadow(0 0 10px #ff8f00) brightness(1.15)", offset: 0.25 },
  { filter: "drop-shadow(0 0 0 transparent)" },
];

// the dice rolled into the middle (the tray keeps its nodes, so a CSS animation would not start again)
const ROLL = [
  { transform: "translateY(-14px) rotate(-90deg)", opacity: 0 },
  { transform: "none", opacity: 1 },
];

const STILL = matchMedia("(prefers-reduced-motion: reduce)"); // (asked once: each call cost an update 0.2 ms)

// a die taken or kept (the dice tray is kept in place, so its nodes are the ones already shown)
const POP = [
  { transform: "scale(0.6) rotate(-20deg)" },
  { transform: "scale(1.12) rotate(6deg)", offset: 0.6 },
  { transform: "none" },
];

// A bonus the last update had to waste, in words for the bar.
export function wastedNotices(view, events) {
  const me = view.mySeat();
  const names = view.names();
  const sym = symbolsOf(view.S.sheet);
  const out = [];
  for (const e of events) {
    if (e.type !== "bonus_wasted") continue;
    let b;
    try { b = bonusLabel(effectBonus(e.bonus), view.lang, sym); } catch { b = String(e.bonus?.[0] ?? "?"); }
    out.push(e.player === me ? view.L("wasted_mine", { b }) : view.L("wasted_theirs", { p: names[e.player] ?? "?", b }));
  }
  return out;
}

export function animate(view, events) {
  // a sheet's changed parts and the tray's dice are updated in place: the Web Animations API replays the
  // flash on them without a forced layout
  const still = STILL.matches;
  const flash = (node) => {
    if (node instanceof SVGElement) node.animate(FLASH, { duration: 1300, easing: "ease-out" });
    else node.animate(POP, { duration: 700, easing: "ease-out" });
  };
  if (still) return; // nothing moves: the changed parts need not be looked up
  // the dice are the same nodes after a roll (dice.js): the roll plays on them
  if (events.some((e) => e.type === "dice_rolled")) view.trayBox.querySelectorAll(".tray-middle .die-slot").forEach((n) => n.animate(ROLL, { duration: 600, easing: "ease-out" }));
  // the player's sheets on show (a parked big sheet is not), searched on their own rather than the whole page
  const shown = (seat) => [view.bigs.get(seat)?.m.wrap, view.others.get(seat)?.m.wrap].filter((w) => w && !w.classList.contains("parked"));
  for (const e of events) {
    if (e.player === undefined || e.player === null) continue;
    for (const sel of changed(e)) {
      for (const wrap of shown(e.player)) wrap.querySelectorAll(sel).forEach(flash);
    }
    if (e.type === "die_picked" || e.type === "die_kept") {
      view.trayBox.querySelectorAll(`[data-die="${e.die}"]`).forEach(flash);
    }
    if (e.type === "karma_rolled") {
      for (const d of e.dice) view.trayBox.querySelectorAll(`[data-die="${d}"]`).forEach(flash);
    }
  }
}

// Round and game-end news of an update, said in the bar (never over the sheet) until the next update, and
// read out by screen readers.
export function news(view, events) {
  const names = view.names();
  const ended = events.find((e) => e.type === "round_ended");
  const passed = events.find((e) => e.type === "elephant_passed");
  const trig = events.find((e) => e.type === "game_end_triggered");
  const over = events.find((e) => e.type === "game_over");
  const started = events.find((e) => e.type === "game_started");
  let text = null;
  let kind = "";
  if (over) text = null; // the result table says it all
  else if (trig) { text = view.L("end_triggered", { p: names[trig.player] }); kind = "big"; }
  else if (ended) text = `${view.L("round_over", { n: ended.round })}${passed ? ` · ${view.L("elephant_to", { p: names[passed.player] })}` : ""}`;
  else if (started) text = view.L("l_game_started", { p: names[started.start_player] });
  if (text) view.announce.textContent = text;
  return text ? { text, kind } : null;
}
