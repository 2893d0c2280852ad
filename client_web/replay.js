// The replay viewer (/games/ID): an archived game, step by step. The browser has no rules engine: the server
// replays the log and serves the public state at each step (GET /api/games/ID/replay once: the sheet file, each
// step's round and seat, the events that made it; GET /api/games/ID/steps for the states, a window at a time).
// Nothing here sends anything that changes a game. The address keeps the step (#step=42): a link to share.

import { html } from "./svg.js";
import { t, setLang, LANGS, LANG_NAMES } from "./i18n.js";
import { mountSheet } from "./sheet.js";
import { renderDice } from "./dice.js";
import { describe } from "./log.js";
import { overlapWords } from "./words.js";
import { glyph } from "./glyphs.js";
import { stepAfter, stepBefore } from "./replay_steps.js";

const SEAT_COLOURS = ["#c0392b", "#2471a3", "#1e8449", "#b7950b", "#6c3483"];
const WINDOW = 50; // steps per request (the server's RAJAS_REPLAY_STEPS default)

const root = document.getElementById("replay");
const gid = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const R = {
  lang: setLang(localStorage.getItem("rajas.lang") || (navigator.language || "en").slice(0, 2)),
  record: null, outline: null, steps: new Map(), pending: new Map(), at: 0, mounted: [], lines: [],
};
const L = (key, vars) => t(key, R.lang, vars);
window.__replay = R; // (the browser tests read the step shown)

function stepFromHash() {
  const m = /step=(\d+)/.exec(location.hash);
  return m ? Number(m[1]) : null;
}

async function getJson(url) {
  const res = await fetch(url);
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw Object.assign(new Error(body.message || res.statusText), { code: body.code, status: res.status });
  return body;
}

function fetchWindow(step) {
  const lo = Math.floor(step / WINDOW) * WINDOW;
  if (!R.pending.has(lo)) {
    R.pending.set(lo, getJson(`/api/games/${gid}/steps?from=${lo}&to=${lo + WINDOW - 1}`).then((got) => {
      for (const s of got.steps) R.steps.set(s.step, s);
    }).catch((e) => { R.pending.delete(lo); throw e; }));
  }
  return R.pending.get(lo);
}

async function show(step, { focus = null, push = true } = {}) {
  const total = R.outline.total;
  step = Math.max(0, Math.min(total - 1, step));
  R.at = step;
  if (!R.steps.has(step)) {
    try {
      await fetchWindow(step);
    } catch {
      R.ui.status.textContent = L("replay_failed");
      return;
    }
  }
  if (R.at !== step) return; // a later request won
  draw(R.steps.get(step));
  const ahead = step + WINDOW / 5; // the next window asked for before the slider gets there
  if (ahead < total && !R.steps.has(ahead)) fetchWindow(ahead).catch(() => {});
  if (push) history.replaceState(null, "", `#step=${step}`);
  if (focus) focus.focus();
  window.__replayShown = step;
}

// ---- drawing ------------------------------------------------------------------------------------------------

function names() {
  return R.record.players;
}

function draw(s) {
  const sheet = R.outline.sheet;
  const state = s.state;
  for (const m of R.mounted) m.destroy?.();
  R.mounted = [];
  const who = s.pending.player ?? state.current;
  const status = s.pending.player === null ? L("game_over")
    : `${L("round", { n: state.round })} · ${L("turn_of", { p: names()[who] })}`;
  R.ui.status.textContent = `${L("replay_step", { n: s.step, m: R.outline.total - 1 })} · ${status}`;
  R.ui.slider.value = String(s.step);
  R.ui.slider.setAttribute("aria-valuetext", L("replay_step", { n: s.step, m: R.outline.total - 1 }));
  R.ui.dice.replaceChildren();
  R.mounted.push(renderDice(R.ui.dice, sheet, state, { lang: R.lang, names: names(), current: s.pending.player }));
  R.ui.sheets.replaceChildren();
  state.players.forEach((p, seat) => {
    const box = html("section", { class: `replay-sheet${seat === who ? " to-move" : ""}`, "data-seat": seat,
      "aria-label": L("replay_sheet_of", { p: names()[seat] }) });
    R.ui.sheets.append(box);
    R.mounted.push(mountSheet(box, sheet, p, { lang: R.lang, name: names()[seat], colour: SEAT_COLOURS[seat], compact: true }));
  });
  markLog(s.step);
  for (const [key, button] of Object.entries(R.ui.buttons)) {
    const target = key.startsWith("prev") || key === "first" ? "back" : "on";
    button.disabled = target === "back" ? s.step === 0 : s.step === R.outline.total - 1;
  }
}

function markLog(step) {
  let first = null;
  for (const li of R.ui.log.children) {
    const here = Number(li.dataset.step) === step;
    li.classList.toggle("current", here);
    if (here) { li.setAttribute("aria-current", "step"); first ??= li; } else li.removeAttribute("aria-current");
  }
  if (first) first.scrollIntoView({ block: "nearest" });
}

function logLines() {
  const ctx = { lang: R.lang, names: names(), sheet: R.outline.sheet, seatIds: {} };
  const items = [];
  R.outline.events.forEach((events, step) => {
    for (const e of events) {
      const line = describe(e, ctx);
      if (!line) continue;
      items.push(html("li", { class: `log-line log-${line.kind}`, "data-step": step,
        style: line.seat !== null && line.seat !== undefined ? `--seat:${SEAT_COLOURS[line.seat]}` : "" },
      html("button", { type: "button", class: "link-button replay-line", onclick: () => show(step),
        "aria-label": `${L("replay_step", { n: step, m: R.outline.total - 1 })}: ${line.text}` }, line.text)));
    }
  });
  return items;
}

function resultTable() {
  const res = R.record.result || [];
  const rows = res.map((r) => html("tr", { class: r.winner ? "winner" : "", "data-seat": r.seat, "data-rank": r.rank },
    html("td", { class: "rank" }, r.winner ? glyph("trophy", 22) : String(r.rank)),
    html("td", null, html("span", { class: "seat-dot", style: `background:${SEAT_COLOURS[r.seat]}` }), names()[r.seat],
      R.record.seats?.[r.seat]?.bot ? ` (${L("replay_bot")})` : ""),
    html("td", { class: "num" }, String(r.fame)),
    html("td", { class: "num" }, String(r.money)),
    html("td", { class: "num" }, overlapWords(r.overlap, R.lang)),
    html("td", { class: "reason" }, r.ahead_by ? L(`tie_${r.ahead_by}`) : "")));
  return html("section", { class: "replay-result", "aria-labelledby": "replay-result-title" },
    html("h2", { id: "replay-result-title" }, L("final_scores")),
    html("div", { class: "table-scroll" }, html("table", { class: "result-table", "data-replay-result": "" },
      html("thead", null, html("tr", null, ...["#", L("name"), L("fame"), L("money"), L("overlap"), L("decided_by")]
        .map((h) => html("th", { scope: "col" }, h)))),
      html("tbody", null, rows))));
}

function controls() {
  const marks = R.outline.marks;
  const go = (key, target) => () => show(target(), { focus: R.ui.buttons[key] });
  const spec = [
    ["first", "|◀", () => 0],
    ["prev_round", "«", () => stepBefore(marks, R.at, "round")],
    ["prev_turn", "◀◀", () => stepBefore(marks, R.at, "turn")],
    ["prev_step", "◀", () => R.at - 1],
    ["next_step", "▶", () => R.at + 1],
    ["next_turn", "▶▶", () => stepAfter(marks, R.at, "turn")],
    ["next_round", "»", () => stepAfter(marks, R.at, "round")],
    ["last", "▶|", () => marks.length - 1],
  ];
  R.ui.buttons = {};
  const row = html("div", { class: "replay-buttons", role: "toolbar", "aria-label": L("replay_controls") },
    ...spec.map(([key, label, target]) => {
      const b = html("button", { type: "button", class: "btn replay-btn", "data-go": key, title: L(`replay_${key}`),
        "aria-label": L(`replay_${key}`), onclick: go(key, target) }, label);
      R.ui.buttons[key] = b;
      return b;
    }));
  const slider = html("input", { type: "range", min: 0, max: marks.length - 1, step: 1, value: 0, class: "replay-slider",
    "aria-label": L("replay_slider") });
  slider.addEventListener("input", () => show(Number(slider.value)));
  R.ui.slider = slider;
  return html("div", { class: "replay-controls" }, slider, row,
    html("p", { class: "muted small replay-keys" }, L("replay_keys")));
}

function onKey(ev) {
  if (ev.target instanceof HTMLInputElement && ev.target.type === "range") return; // the slider has its own keys
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const marks = R.outline.marks;
  const by = ev.shiftKey ? "turn" : null;
  let target = null;
  if (ev.key === "ArrowRight") target = by ? stepAfter(marks, R.at, by) : R.at + 1;
  else if (ev.key === "ArrowLeft") target = by ? stepBefore(marks, R.at, by) : R.at - 1;
  else if (ev.key === "PageDown") target = stepAfter(marks, R.at, "round");
  else if (ev.key === "PageUp") target = stepBefore(marks, R.at, "round");
  else if (ev.key === "Home") target = 0;
  else if (ev.key === "End") target = marks.length - 1;
  if (target === null) return;
  ev.preventDefault();
  show(target);
}

function langPicker() {
  const sel = html("select", { class: "lang-select", "aria-label": L("language") },
    ...LANGS.map((l) => html("option", { value: l, selected: l === R.lang ? "" : null }, LANG_NAMES[l])));
  sel.value = R.lang;
  sel.addEventListener("change", () => {
    R.lang = setLang(sel.value);
    localStorage.setItem("rajas.lang", R.lang);
    build();
    show(R.at, { push: false });
  });
  return sel;
}

function build() {
  document.documentElement.lang = R.lang;
  document.title = `${L("replay_title")} · Rajas of the Ganges`;
  const log = html("ol", { class: "log-list replay-log", "data-log": "", "aria-label": L("log") }, ...logLines());
  const status = html("p", { class: "replay-status", "aria-live": "polite", "data-replay-status": "" });
  R.ui = { log, status, dice: html("div", { class: "replay-dice" }), sheets: html("div", { class: "replay-sheets" }) };
  const download = html("a", { class: "btn replay-download", href: `/api/games/${gid}?download=1`,
    download: `rajas-game-${gid}.json` }, L("replay_download"));
  const players = names().map((n, i) => `${n}${R.record.seats?.[i]?.bot ? ` (${L("replay_bot")})` : ""}`).join(", ");
  root.replaceChildren(
    html("header", { class: "replay-head" },
      html("h1", null, L("replay_title")),
      html("p", { class: "muted" }, players, " · ", new Date(R.record.finished * 1000).toLocaleString(R.lang)),
      html("div", { class: "replay-tools" }, download, html("a", { class: "btn", href: "/" }, L("replay_home")), langPicker())),
    controls(),
    status,
    html("div", { class: "replay-main" },
      html("div", { class: "replay-board" }, R.ui.dice, R.ui.sheets),
      html("aside", { class: "replay-side" }, html("h2", null, L("log")), log)),
    resultTable());
}

async function start() {
  if (!/^[0-9a-f]{24}$/.test(gid)) return fail();
  try {
    [R.record, R.outline] = await Promise.all([getJson(`/api/games/${gid}`), getJson(`/api/games/${gid}/replay`)]);
  } catch (e) {
    return fail(e);
  }
  build();
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", () => { const s = stepFromHash(); if (s !== null && s !== R.at) show(s, { push: false }); });
  const wanted = stepFromHash();
  await show(wanted ?? R.outline.total - 1, { push: wanted !== null });
  window.__replayReady = true;
}

function fail(e) {
  document.documentElement.lang = R.lang;
  root.replaceChildren(html("main", { class: "replay-missing" },
    html("h1", null, L("replay_title")),
    html("p", { role: "alert" }, L(e && e.status !== 404 ? "replay_failed" : "replay_not_found")),
    html("a", { class: "btn", href: "/" }, L("replay_home"))));
  window.__replayReady = true;
}

start();
