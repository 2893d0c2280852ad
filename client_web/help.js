// "How to play" in every bar: the room's game explains itself (its help(): the rules in our own words and the legend
// of the room's sheet or cards) in a box over the page. On the home page it is the first game's help.

import { h } from "./ui.js";
import { t } from "./i18n.js";
import { getState } from "./store.js";
import { gameOf, loadGame } from "./games.js";

async function openHelp() {
  const { lang, room, sheet } = getState();
  const { index } = await loadGame(gameOf(room), lang);
  const [content, { openOverlay }] = await Promise.all([index.help(lang, room ? sheet : null), import("./overlay.js")]);
  openOverlay(content, { "data-overlay": "help" }, { dialog: true, label: t("how_to_play", lang), card: "help-card" });
}

export function HelpButton({ lang }) {
  return h("button", { type: "button", class: "link-button help-link", "data-action": "help", "aria-label": t("how_to_play", lang), onClick: openHelp },
    h("span", { "aria-hidden": "true" }, "?"), h("span", { class: "help-text", "aria-hidden": "true" }, ` ${t("how_to_play", lang)}`));
}
