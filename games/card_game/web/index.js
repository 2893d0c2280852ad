// Rajas of the Ganges: the card game in the browser, as the table (client_web/) knows it: the game interface
// client_web/README.md describes. Small, loaded with the table's pages; the board, the help and the deal check load
// when they are first needed.

import { t } from "/i18n.js";

export { describe } from "./log.js";
export { Options } from "./options.js";

export const id = "card_game";

// The players a room of this game seats (the home page's choice).
export const players = [2, 3, 4];

// The game's name in the page's language (the home page's choice of game).
export const title = (lang) => t("cg_title", lang);

const V = new URL(import.meta.url).search; // the page's version, for modules loaded by a computed name

export const words = (lang) => import(`./i18n/${lang}.js${V}`);

export const play = () => import("./play.js");

export async function help(lang) {
  return (await import("./help.js")).help(lang);
}

// The check of a finished game's deal (docs/fairness.md): the seed against the commitment, the contributions, and
// every card's number and every card dealt that the log shows, against the shuffle written again in dealcheck.js.
export async function checkDice(log, seen) {
  const [{ checkDeal }, { known }] = await Promise.all([import("./dealcheck.js"), import("./known.js")]);
  return checkDeal(log, seen, known.cards);
}
