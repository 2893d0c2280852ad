// How to play the Dice Charmers, in our own words, and a legend of every icon of the room's sheet, built from the
// sheet file itself (so a custom sheet gets its own legend). The table shows it behind its "How to play" button.

import { h } from "/ui.js";
import { t } from "/i18n.js";
import { bonusIcon, buildingIcon, characterIcon, goodIcon, inlineSvg, marketIcon, residenceIcon, symbolIcon } from "./icons.js";
import { CHARACTERS, GOODS, bonusLabel } from "./labels.js";

const SECTIONS = ["goal", "turn", "colours", "karma", "bonus", "end"];

function walkBonuses(x, out) {
  if (Array.isArray(x)) { for (const y of x) walkBonuses(y, out); return; }
  if (!x || typeof x !== "object") return;
  if (typeof x.kind === "string") out.set(JSON.stringify(x), x);
  for (const v of Object.values(x)) walkBonuses(v, out);
}

// Every icon of a sheet with its meaning: the bonuses anywhere on it, its buildings, markets, river symbols.
export function sheetLegend(sheet, lang) {
  const rows = [];
  const symbols = [...new Set(sheet.river.spaces.map((s) => s.symbol))];
  const add = (svg, label) => rows.push(h("li", { class: "legend-row" }, svg, h("span", null, label)));
  for (const kind of new Set(sheet.province.cells.flat())) {
    if (kind === "residence") add(inlineSvg(32, residenceIcon(16, 17, 12, lang)), t("residence", lang));
    else if (kind.startsWith("market_")) add(inlineSvg(32, marketIcon(kind.slice(7), 16, 16, 12, lang)), t(kind, lang));
    else add(inlineSvg(32, buildingIcon(kind, 16, 16, 12, lang)), t(kind, lang));
  }
  for (const s of symbols) add(inlineSvg(32, symbolIcon(s, 16, 16, 13)), `${t("river", lang)}: ${t(s, lang)}`);
  for (const g of GOODS) add(inlineSvg(32, goodIcon(g, 16, 16, 11)), t(g, lang));
  for (const c of CHARACTERS) add(inlineSvg(32, characterIcon(c, 16, 16, 13, lang)), `${t("palace", lang)}: ${t(c, lang)}`);
  const bonuses = new Map();
  walkBonuses({ ...sheet, province: { ...sheet.province, cells: [] } }, bonuses);
  for (const b of bonuses.values()) {
    let icon;
    let label;
    try { icon = bonusIcon(b, 16, 16, 13, lang); label = bonusLabel(b, lang, symbols); } catch { continue; }
    add(inlineSvg(32, icon), label);
  }
  return h("ul", { class: "legend", "data-legend-list": "" }, rows);
}

// `sheet`: the room's sheet file, or null (the home page: no legend).
export function help(lang, sheet) {
  return h("div", { class: "help", "data-help": "" },
    h("h2", null, t("how_to_play", lang)),
    SECTIONS.map((k) => h("section", null, h("h3", null, t(`h_${k}_t`, lang)), h("p", null, t(`h_${k}`, lang)))),
    sheet ? h("section", null, h("h3", null, t("legend_title", lang)), sheetLegend(sheet, lang)) : null);
}
