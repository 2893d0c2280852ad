// Rules help in the page: how to play in our own words, and a legend of every icon of the room's sheet
// (built from the sheet file itself, so a custom sheet gets its own legend).

import { html, inlineSvg } from "./svg.js";
import { t } from "./i18n.js";
import {
  bonusIcon, bonusLabel, buildingIcon, marketIcon, residenceIcon, symbolIcon, goodIcon, characterIcon, CHARACTERS, GOODS,
} from "./icons.js";

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
  const add = (svg, label) => rows.push(html("li", { class: "legend-row" }, svg, html("span", null, label)));
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
  return html("ul", { class: "legend", "data-legend-list": "" }, rows);
}

export function helpContent(lang, sheet) {
  return html("div", { class: "help", "data-help": "" },
    html("h2", null, t("how_to_play", lang)),
    SECTIONS.map((k) => html("section", null, html("h3", null, t(`h_${k}_t`, lang)), html("p", null, t(`h_${k}`, lang)))),
    sheet ? html("section", null, html("h3", null, t("legend_title", lang)), sheetLegend(sheet, lang)) : null);
}

// An overlay with the help; Escape, the close button or a click beside it closes it.
export function openHelp(lang, sheet) {
  const opener = document.activeElement;
  const close = () => { ov.remove(); document.removeEventListener("keydown", onKey); opener?.focus?.(); };
  const onKey = (e) => { if (e.key === "Escape") close(); };
  const closeBtn = html("button", { type: "button", class: "overlay-close", "data-action": "close", "aria-label": t("close", lang), onclick: close }, "✕");
  const ov = html("div", { class: "overlay", "data-overlay": "help", role: "dialog", "aria-modal": "true", "aria-label": t("how_to_play", lang), onclick: (e) => { if (e.target === ov) close(); } },
    html("div", { class: "overlay-card help-card" }, closeBtn, helpContent(lang, sheet)));
  document.addEventListener("keydown", onKey);
  document.body.append(ov);
  closeBtn.focus();
  return { close, node: ov };
}

// The "How to play" button of the bars (lobby, game); `ctx()` gives the room's sheet when there is one.
export function helpButton(lang, ctx = () => ({})) {
  return html("button", { type: "button", class: "link-button help-link", "data-action": "help", "aria-label": t("how_to_play", lang), onclick: () => openHelp(lang, ctx().sheet || null) },
    html("span", { "aria-hidden": "true" }, "?"), html("span", { class: "help-text", "aria-hidden": "true" }, ` ${t("how_to_play", lang)}`));
}
