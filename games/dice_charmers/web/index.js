// Rajas of the Ganges: The Dice Charmers in the browser, as the table (client_web/) knows it: the game interface
// client_web/README.md describes. This module is small and loads with the table's pages; the board, the help, the
// end of the game and the dice check load when they are first needed.

import { t } from "/i18n.js";

export { describe } from "./log.js";
export { Options, sheetName, rememberSheet } from "./options.js";

export const id = "dice_charmers";

// The game's name in the page's language (the home page's choice of game).
export const title = (lang) => t("dc_title", lang);

// The version of the page's files (the static server's ?v=), for the modules loaded by a computed name.
const V = new URL(import.meta.url).search;

// The game's words in one language: a module whose default export is the catalogue (i18n/<lang>.js).
export const words = (lang) => import(`./i18n/${lang}.js${V}`);

// The board and what the game screen shows of the game (play.js): createView, prompt, status, seatStats, summary.
export const play = () => import("./play.js");

// How to play, and the legend of the room's sheet (null on the home page).
export async function help(lang, sheet) {
  return (await import("./help.js")).help(lang, sheet);
}

// The dice check of a finished game (docs/fairness.md): every roll of the log from the seed and the contributions,
// against the commitment this page saw at the start and its own contribution. {ok, rolls, step, text(lang)}.
export async function checkDice(log, seen) {
  const { checkLog } = await import("./dicecheck.js");
  const result = checkLog(log, seen);
  return { ...result, text: (lang) => diceText(result, lang) };
}

function diceText(r, lang) {
  if (r.ok) return t("dice_verified", lang, { n: r.rolls });
  const s = r.step;
  if (s.kind === "roll") {
    const where = s.decision === null ? t("dice_at_start", lang) : t("dice_at_decision", lang, { i: s.decision + 1 });
    const detail = s.die === null ? t("dice_roll_shape", lang) : t("dice_roll_face", lang, { d: s.die + 1, a: s.log + 1, b: s.dice + 1 });
    return t("dice_failed_roll", lang, { r: s.roll, w: where, x: detail });
  }
  const seatOf = (x) => (typeof x === "number" ? x + 1 : x); // seats counted from 1, as people count them
  const vars = { seat: seatOf(s.seat ?? 0), a: seatOf(s.log), b: seatOf(s.dice), saw: String(s.saw || "").slice(0, 12), log: String(s.log || "").slice(0, 12) };
  return t(`dice_failed_${s.kind}`, lang, vars);
}
