// The replay viewer (/games/ID): an archived game, step by step. The browser has no rules engine: the server replays
// the log and serves the public state at each step (GET /api/games/ID/replay once: the game's file, each step's round
// and seat, the events that made it; GET /api/games/ID/steps for the states, a window at a time). The shell is the
// table's (the controls, the log, the address); the board and the final scores are the game's. Nothing here sends
// anything that changes a game. The address keeps the step (#step=42): a link to share.

import { h, render, Component } from "./ui.js";
import { t, setLang, loadWords, LANGS, LANG_NAMES } from "./i18n.js";
import { SEAT_COLOURS } from "./glyphs.js";
import { logLine } from "./side.js";
import { gameOf, loadGame } from "./games.js";
import { stepAfter, stepBefore } from "./replay_steps.js";

const WINDOW = 50; // steps per request (the server's RAJAS_REPLAY_STEPS default)

const root = document.getElementById("replay");
const gid = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const R = { lang: "en", record: null, outline: null, steps: new Map(), pending: new Map(), at: 0, play: null, index: null };
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

let viewer = null; // the Viewer component on the page

async function show(step, { focus = null, push = true } = {}) {
  const total = R.outline.total;
  step = Math.max(0, Math.min(total - 1, step));
  R.at = step;
  if (!R.steps.has(step)) {
    try {
      await fetchWindow(step);
    } catch {
      viewer.setState({ failed: true });
      return;
    }
  }
  if (R.at !== step) return; // a later request won
  viewer.setState({ step: R.steps.get(step), failed: false }, () => {
    if (focus) root.querySelector(`[data-go="${focus}"]`)?.focus();
    root.querySelector(".replay-log [aria-current=step]")?.scrollIntoView({ block: "nearest" });
    window.__replayShown = step;
  });
  const ahead = step + WINDOW / 5; // the next window asked for before the slider gets there
  if (ahead < total && !R.steps.has(ahead)) fetchWindow(ahead).catch(() => {});
  if (push) history.replaceState(null, "", `#step=${step}`);
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

// What the game is given to draw a step (client_web/README.md, "The game interface"): a spectator's frame.
function frameOf(s) {
  const names = R.record.players;
  return { lang: R.lang, status: s.pending.player === null ? "over" : "playing", game: { state: s.state, pending: s.pending }, sheet: R.outline.sheet,
    names, colours: SEAT_COLOURS, seats: names.map((name, i) => ({ name, bot: !!R.record.seats?.[i]?.bot })), me: null, role: "spectator",
    mine: false, decide: () => {}, events: [], mode: "replay" };
}

// The game's board for the step shown, drawn in its own place and brought to each step.
class Board extends Component {
  componentDidMount() { this.view = R.play.createView({ main: this.box, side: this.box }, this.props.frame); }
  componentDidUpdate() { this.view.update(this.props.frame); }
  componentWillUnmount() { this.view.destroy(); }
  shouldComponentUpdate(next) { return next.frame !== this.props.frame; }
  render() { return h("div", { class: "replay-board", ref: (n) => { this.box = n; } }); }
}

class Viewer extends Component {
  constructor(props) {
    super(props);
    viewer = this; // (the one on the page: show() draws it at another step)
  }

  render(_, { step, failed }) {
    const L = (key, vars) => t(key, R.lang, vars);
    const { outline, record } = R;
    const names = record.players;
    const total = outline.total;
    const at = step ? step.step : R.at;
    const frame = step ? frameOf(step) : null;
    const who = step ? step.pending.player ?? step.state.current : null;
    const status = failed ? L("replay_failed") : step
      ? `${L("replay_step", { n: at, m: total - 1 })} · ${step.pending.player === null ? L("game_over") : `${R.play.status(frame)} · ${L("turn_of", { p: names[who] })}`}` : "";
    const marks = outline.marks;
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
    const ctx = { lang: R.lang, names, sheet: outline.sheet, seatIds: {} };
    const players = names.map((n, i) => `${n}${record.seats?.[i]?.bot ? ` (${L("replay_bot")})` : ""}`).join(", ");
    const download = `rajas-game-${gid}.json`;
    const lines = [];
    outline.events.forEach((events, i) => {
      for (const event of events) {
        const entry = R.entries.get(event) || R.entries.set(event, { event }).get(event);
        const line = logLine(entry, ctx, R.index.describe);
        if (!line) continue;
        lines.push(h("li", { class: `log-line log-${line.kind}${i === at ? " current" : ""}`, "data-step": i, "aria-current": i === at ? "step" : null,
          style: line.seat !== null && line.seat !== undefined ? `--seat:${SEAT_COLOURS[line.seat]}` : "" },
        h("button", { type: "button", class: "link-button replay-line", onClick: () => show(i), "aria-label": `${L("replay_step", { n: i, m: total - 1 })}: ${line.text}` }, line.text)));
      }
    });
    return h("div", null,
      h("header", { class: "replay-head" },
        h("h1", null, L("replay_title")),
        h("p", { class: "muted" }, players, " · ", new Date(record.finished * 1000).toLocaleString(R.lang)),
        h("div", { class: "replay-tools" },
          h("a", { class: "btn replay-download", href: `/api/games/${gid}?download=1`, download }, L("replay_download")),
          h("a", { class: "btn", href: "/" }, L("replay_home")),
          h("select", { class: "lang-select", "aria-label": L("language"), value: R.lang, onChange: (e) => setLanguage(e.target.value) },
            LANGS.map((l) => h("option", { value: l, selected: l === R.lang }, LANG_NAMES[l]))))),
      h("div", { class: "replay-controls" },
        h("input", { type: "range", min: 0, max: marks.length - 1, step: 1, value: String(at), class: "replay-slider", "aria-label": L("replay_slider"),
          "aria-valuetext": L("replay_step", { n: at, m: total - 1 }), onInput: (e) => show(Number(e.target.value)) }),
        h("div", { class: "replay-buttons", role: "toolbar", "aria-label": L("replay_controls") }, spec.map(([key, label, target]) => h("button", {
          type: "button", class: "btn replay-btn", "data-go": key, title: L(`replay_${key}`), "aria-label": L(`replay_${key}`),
          disabled: key.startsWith("prev") || key === "first" ? at === 0 : at === total - 1, onClick: () => show(target(), { focus: key }),
        }, label))),
        h("p", { class: "muted small replay-keys" }, L("replay_keys"))),
      h("p", { class: "replay-status", "aria-live": "polite", "data-replay-status": "" }, status),
      h("div", { class: "replay-main" },
        frame ? h(Board, { frame }) : h("div", { class: "replay-board" }),
        h("aside", { class: "replay-side" }, h("h2", null, L("log")), h("ol", { class: "log-list replay-log", "data-log": "", "aria-label": L("log") }, lines))),
      h("section", { class: "replay-result", "aria-labelledby": "replay-result-title" },
        h("h2", { id: "replay-result-title" }, L("final_scores")),
        h("div", { class: "table-scroll" }, R.play.scoreTable({ lang: R.lang, names, colours: SEAT_COLOURS, game: { state: { result: record.result || [] } } }, { "data-replay-result": "" }))));
  }
}

async function setLanguage(lang) {
  await loadWords(lang);
  R.lang = setLang(lang);
  localStorage.setItem("rajas.lang", R.lang);
  document.documentElement.lang = R.lang;
  document.title = `${t("replay_title", R.lang)} · Rajas of the Ganges`;
  viewer.forceUpdate();
}

async function start() {
  R.lang = setLang(localStorage.getItem("rajas.lang") || (navigator.language || "en").slice(0, 2));
  document.documentElement.lang = R.lang;
  if (!/^[0-9a-f]{24}$/.test(gid)) return fail();
  try {
    [R.record, R.outline] = await Promise.all([getJson(`/api/games/${gid}`), getJson(`/api/games/${gid}/replay`)]);
    const loaded = await loadGame(gameOf({ settings: R.record.settings }), R.lang, { board: true });
    R.play = loaded.play;
    R.index = loaded.index;
  } catch (e) {
    return fail(e);
  }
  R.entries = new Map(); // an event -> its log entry (side.js describes each once per language)
  document.title = `${t("replay_title", R.lang)} · Rajas of the Ganges`;
  render(h(Viewer, null), root);
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", () => { const s = stepFromHash(); if (s !== null && s !== R.at) show(s, { push: false }); });
  const wanted = stepFromHash();
  await show(wanted ?? R.outline.total - 1, { push: wanted !== null });
  window.__replayReady = true;
}

async function fail(e) {
  await loadWords(R.lang).catch(() => {});
  const L = (key) => t(key, R.lang);
  render(h("main", { class: "replay-missing" },
    h("h1", null, L("replay_title")),
    h("p", { role: "alert" }, L(e && e.status !== 404 ? "replay_failed" : "replay_not_found")),
    h("a", { class: "btn", href: "/" }, L("replay_home"))), root);
  window.__replayReady = true;
}

start();
