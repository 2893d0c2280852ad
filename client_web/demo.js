// Demo page: loads a fixture game (fixtures/<name>.json) and shows the dice tray, the sheet of the
// player to move with its legal options, and the other players' sheets small. A decision is only shown.

import { mountSheet } from "./sheet.js";
import { renderDice } from "./dice.js";
import { t, setLang } from "./i18n.js";

export const SEAT_COLOURS = ["#c0392b", "#2471a3", "#1e8449", "#b7950b", "#6c3483"];

const params = new URLSearchParams(location.search);
const fixtureSelect = document.getElementById("fixture");
const langSelect = document.getElementById("lang");
fixtureSelect.value = params.get("fixture") || "midgame";
langSelect.value = params.get("lang") || "en";
window.__decisions = [];

let mounted = [];

async function show() {
  window.__ready = false;
  const lang = setLang(langSelect.value);
  document.documentElement.lang = lang;
  const name = fixtureSelect.value;
  const res = await fetch(`fixtures/${name}.json`);
  const fx = await res.json();
  const { sheet, state, pending } = fx;
  for (const m of mounted) m.destroy();
  mounted = [];
  document.querySelectorAll("[data-i18n]").forEach((n) => { n.textContent = t(n.dataset.i18n, lang); });
  const names = state.players.map((_, i) => t("seat", lang, { n: i + 1 }));
  const me = pending.player ?? state.order[state.turn] ?? 0;
  const log = document.getElementById("log");
  log.textContent = "–";
  const onDecide = (w) => {
    window.__decisions.push(w);
    log.textContent = JSON.stringify(w);
    document.getElementById("status").textContent = `${t("decided", lang)}: ${JSON.stringify(w)}`;
  };
  document.getElementById("status").textContent = pending.player === null
    ? t("game_over", lang)
    : `${t("round", lang, { n: state.round })} · ${t("turn_of", lang, { p: names[me] })}`;

  const diceBox = document.getElementById("dice");
  diceBox.replaceChildren();
  mounted.push(renderDice(diceBox, sheet, state, { lang, options: pending.options, onDecide, names, me, current: pending.player }));

  const meBox = document.getElementById("me");
  meBox.replaceChildren();
  mounted.push(mountSheet(meBox, sheet, state.players[me], {
    lang, name: names[me], colour: SEAT_COLOURS[me], active: true,
    options: pending.options, onDecide, pool: pending.pool, effect: pending.effect, faces: state.faces,
  }));

  const others = document.getElementById("others");
  others.replaceChildren();
  state.players.forEach((p, seat) => {
    if (seat === me) return;
    mounted.push(mountSheet(others, sheet, p, { lang, name: names[seat], colour: SEAT_COLOURS[seat], compact: true }));
  });
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
