// Turn alerts: when this player's turn begins while the tab is hidden, the tab title and favicon change, a
// short tone plays (made with WebAudio: no sound file), a browser notification appears (where allowed) and a
// phone vibrates. Each can be switched off; the choice is kept in localStorage ("rajas.alerts").

import { h, Component } from "./ui.js";
import { t } from "./i18n.js";
import { glyph } from "./glyphs.js";

const KEY = "rajas.alerts";
export const ALERT_KINDS = ["title", "sound", "notify", "vibrate"];
const DOT_ICON = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 100 100'%3E%3Ccircle cx='50' cy='50' r='46' fill='%23c0392b'/%3E%3Ctext x='50' y='70' font-size='60' text-anchor='middle' fill='white'%3E!%3C/text%3E%3C/svg%3E";

export function alertPrefs() {
  let stored = {};
  try { stored = JSON.parse(localStorage.getItem(KEY)) || {}; } catch { /* a damaged entry: the defaults */ }
  return Object.fromEntries(ALERT_KINDS.map((k) => [k, stored[k] !== false]));
}

function savePref(kind, on) {
  localStorage.setItem(KEY, JSON.stringify({ ...alertPrefs(), [kind]: on }));
}

let active = null; // {title, icon} of the page before the alert, while the alert shows
let lastFired = 0;

function iconLink() {
  let link = document.querySelector("link[rel=icon]");
  if (!link) { link = document.createElement("link"); link.rel = "icon"; document.head.append(link); }
  return link;
}

function beep() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  try {
    const ctx = new Ctx();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.0001, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.2, ctx.currentTime + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.35);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.4);
    osc.onended = () => ctx.close();
  } catch { /* audio not allowed before a gesture: the other alerts still show */ }
}

// The turn began: alert if the tab is hidden. `code` names the room (the notification's tag: one per room).
export function turnAlert(lang, code) {
  if (document.visibilityState !== "hidden") return false;
  const now = Date.now();
  if (now - lastFired < 1000) return false; // one alert per turn, even if the page draws it twice
  lastFired = now;
  const prefs = alertPrefs();
  const text = t("alert_your_turn", lang);
  if (prefs.title) {
    if (!active) active = { title: document.title, icon: iconLink().href };
    document.title = `● ${text} · Rajas`;
    iconLink().href = DOT_ICON;
  }
  if (prefs.sound) beep();
  if (prefs.vibrate && typeof navigator.vibrate === "function") navigator.vibrate([200, 100, 200]);
  if (prefs.notify && "Notification" in window && Notification.permission === "granted") {
    try {
      const n = new Notification(text, { body: t("alert_body", lang, { c: code || "" }), tag: `rajas-${code}` });
      n.onclick = () => { window.focus(); n.close(); };
    } catch { /* some browsers only notify from a service worker */ }
  }
  return true;
}

// The page's title (drawn on every update), written only when it changed: writing it replaces the title's
// text node and tells the browser again. While an alert shows, the alert's title stays until the tab is seen.
export function setPageTitle(lang, title) {
  const want = active ? `● ${t("alert_your_turn", lang)} · Rajas` : title;
  if (document.title !== want) document.title = want;
}

export function alertShowing() {
  return active !== null;
}

function clear() {
  if (!active || document.visibilityState === "hidden") return;
  document.title = active.title;
  iconLink().href = active.icon;
  active = null;
}
document.addEventListener("visibilitychange", clear);
window.addEventListener("focus", clear);

let panelOpen = false; // kept while the page draws the switches again (the lobby is drawn on every update)

// The switches, one checkbox per kind; turning notifications on asks the browser's permission.
// `menu`: drawn in the game's bar as a bell that opens the switches over the page.
export class AlertSettings extends Component {
  async toggle(kind, on) {
    savePref(kind, on);
    if (kind === "notify" && on && "Notification" in window && Notification.permission === "default") {
      try { await Notification.requestPermission(); } catch { /* refused: the switch stays, nothing shows */ }
    }
    this.forceUpdate();
  }

  async ask() {
    try { await Notification.requestPermission(); } catch { /* refused */ }
    this.forceUpdate();
  }

  render({ lang, menu = false }) {
    const prefs = alertPrefs();
    // notifications are on by default, but the browser asks only after a click: this button is that click
    const canAsk = prefs.notify && "Notification" in window && Notification.permission === "default";
    return h("details", { class: menu ? "alert-settings alert-menu" : "alert-settings", "data-panel": "alerts", open: panelOpen, onToggle: (e) => { panelOpen = e.target.open; } },
      menu
        ? h("summary", { "aria-label": t("alert_settings", lang), title: t("alert_settings", lang) }, glyph("bell", 20))
        : h("summary", null, t("alert_settings", lang)),
      h("div", { class: "alert-panel" }, h("p", { class: "muted small" }, t("alert_hint", lang)),
        ALERT_KINDS.map((kind) => h("label", { class: "check" },
          h("input", { type: "checkbox", checked: prefs[kind], "data-alert": kind, onChange: (e) => this.toggle(kind, e.target.checked) }),
          h("span", null, t(`alert_${kind}`, lang)))),
        h("button", { type: "button", class: "btn small", "data-action": "alert-permission", hidden: !canAsk, onClick: () => this.ask() }, t("alert_allow", lang))));
  }
}
