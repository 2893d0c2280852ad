// The demo page: a fixture game (fixtures/<name>.json) drawn by the game's own parts: the dice tray, the sheet of the
// player to move with its legal options and the choices panel, and the other players' sheets small. A decision is
// only shown, never sent.

import { h, render } from "/ui.js";
import { t, setLang, loadWords, addWords } from "/i18n.js";
import { SEAT_COLOURS } from "/glyphs.js";
import { words } from "./index.js";
import { Sheet } from "./sheet.js";
import { Tray } from "./dice.js";
import { BigSheet } from "./play.js";

const params = new URLSearchParams(location.search);
const fixtureSelect = document.getElementById("fixture");
const langSelect = document.getElementById("lang");
fixtureSelect.value = params.get("fixture") || "midgame";
langSelect.value = params.get("lang") || "en";
window.__decisions = [];
addWords(words);

const Choices = ({ children, onKeyDown }) => h("div", { class: "choices", "aria-live": "polite", "data-panel": "choices", onKeyDown }, children);
const zoom = { level: 1 };

async function show() {
  window.__ready = false;
  await loadWords(langSelect.value);
  const lang = setLang(langSelect.value);
  document.documentElement.lang = lang;
  const fx = await (await fetch(`fixtures/${fixtureSelect.value}.json`)).json();
  const { sheet, state, pending } = fx;
  document.querySelectorAll("[data-i18n]").forEach((n) => { n.textContent = t(n.dataset.i18n, lang); });
  const names = state.players.map((_, i) => t("seat", lang, { n: i + 1 }));
  const me = pending.player ?? state.order[state.turn] ?? 0;
  document.getElementById("log").textContent = "–";
  const onDecide = (w) => {
    window.__decisions.push(w);
    document.getElementById("log").textContent = JSON.stringify(w);
    document.getElementById("status").textContent = `${t("decided", lang)}: ${JSON.stringify(w)}`;
  };
  document.getElementById("status").textContent = pending.player === null
    ? t("game_over", lang) : `${t("round", lang, { n: state.round })} · ${t("turn_of", lang, { p: names[me] })}`;
  const key = `${fixtureSelect.value}|${lang}`; // another moment or language: drawn anew
  render(h(Tray, { key, sheet, state, lang, options: pending.options, onDecide, names, me, current: pending.player }), document.getElementById("dice"));
  render(h(BigSheet, { key, seat: me, sheet, player: state.players[me], lang, name: names[me], colour: SEAT_COLOURS[me], active: true, zoom, Choices,
    options: pending.options, decide: onDecide, pool: pending.pool, effect: pending.effect, faces: state.faces }), document.getElementById("me"));
  render(state.players.map((p, seat) => (seat === me ? null : h("div", { key: `${key}|${seat}`, class: "sheet-wrap compact", "data-seat": seat },
    h(Sheet, { sheet, player: p, lang, name: names[seat], colour: SEAT_COLOURS[seat], compact: true })))), document.getElementById("others"));
  window.__fixture = fx;
  window.__ready = true;
}

function update() {
  const u = new URL(location.href);
  u.searchParams.set("fixture", fixtureSelect.value);
  u.searchParams.set("lang", langSelect.value);
  history.replaceState(null, "", u);
  show();
}

fixtureSelect.addEventListener("change", update);
langSelect.addEventListener("change", update);
show();
