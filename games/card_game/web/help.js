// How to play the card game, in our own words (the table shows it behind its "How to play" button).

import { h } from "/ui.js";
import { t } from "/i18n.js";

const SECTIONS = ["goal", "cards", "turn", "actions", "pay", "rows", "track", "end"];

export function help(lang) {
  return h("div", { class: "help cg-help" },
    h("h2", null, t("cg_help_title", lang)),
    SECTIONS.map((s) => h("section", { key: s }, h("h3", null, t(`cg_help_${s}_h`, lang)), h("p", null, t(`cg_help_${s}`, lang)))));
}
