// The home page's two lists: "Resume" (every room this browser holds a seat in: the seat tokens kept in
// localStorage as rajas.room.<code>) and the public rooms waiting for players (GET /api/rooms), refreshed on a
// timer and by a button; one click takes an open seat (asking the name) or watches.

import { html } from "./svg.js";
import { t } from "./i18n.js";

const REFRESH_MS = 10_000;
const RESUME_MAX = 20; // the newest seats shown (a browser may have played many rooms)

// The rooms this browser holds a seat in, newest first: [{code, name, at}].
export function heldSeats() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith("rajas.room.")) continue;
    let r = null;
    try { r = JSON.parse(localStorage.getItem(key)); } catch { continue; }
    if (r && r.token) out.push({ code: key.slice("rajas.room.".length), name: r.name || "", at: r.at || 0 });
  }
  out.sort((a, b) => b.at - a.at);
  return out.slice(0, RESUME_MAX);
}

function sheetName(sheet, L) {
  if (typeof sheet === "string") return L(`sheet_${sheet}`);
  if (sheet && typeof sheet.custom === "string") return L("sheet_custom", { t: sheet.custom });
  return "";
}

export function resumeCard(lang, go) {
  const L = (k, v) => t(k, lang, v);
  const held = heldSeats();
  if (!held.length) return null;
  return html("section", { class: "card resume-card", "data-list": "resume", "aria-labelledby": "resume-title" },
    html("h2", { id: "resume-title" }, L("resume_title")),
    html("ul", { class: "room-list" }, held.map((h) => html("li", { class: "room-line", "data-room": h.code },
      html("span", { class: "room-what" }, html("strong", null, h.code), h.name ? ` · ${h.name}` : ""),
      html("button", { type: "button", class: "btn small primary", "data-action": "resume", "aria-label": L("resume_room", { c: h.code }),
        onclick: () => go(`/?room=${h.code}`) }, L("resume"))))));
}

// The public rooms' card: drawn empty, filled by fetching; `join(code, name)` and `watch(code)` leave the page.
export function publicRoomsCard(lang, { join, watch, lastName }) {
  const L = (k, v) => t(k, lang, v);
  const list = html("ul", { class: "room-list", "aria-live": "polite" });
  const status = html("p", { class: "muted small", "data-status": "public" }, L("public_loading"));
  let timer = null;

  const line = (r) => {
    const open = r.seats - r.taken;
    const names = (r.names || []).join(", ");
    const what = [sheetName(r.sheet, L), L("public_players", { n: r.taken, m: r.seats }), open > 0 ? L("public_open", { n: open }) : L("public_full"), L("public_not_started")]
      .filter(Boolean).join(" · ");
    const nameInput = html("input", { name: "name", value: lastName, maxlength: 24, autocomplete: "nickname", "aria-label": L("your_name"), "data-field": "public-name" });
    const ask = html("form", { class: "public-ask", hidden: true, onsubmit: (e) => {
      e.preventDefault();
      const n = nameInput.value.trim();
      if (!n) { nameInput.focus(); return; }
      join(r.code, n);
    } }, nameInput, html("button", { type: "submit", class: "btn small primary", "data-action": "public-take" }, L("take_seat")));
    return html("li", { class: "room-line", "data-room": r.code, "data-open": open },
      html("span", { class: "room-what" }, html("strong", null, r.code), ` · ${what}`, names ? html("span", { class: "muted small room-names" }, ` (${names})`) : null),
      html("span", { class: "room-actions" },
        open > 0 ? html("button", { type: "button", class: "btn small primary", "data-action": "public-join", "aria-label": L("public_join_room", { c: r.code }), onclick: () => {
          ask.hidden = false;
          nameInput.focus();
        } }, L("join")) : null,
        r.spectators ? html("button", { type: "button", class: "btn small", "data-action": "public-watch", "aria-label": L("public_watch_room", { c: r.code }), onclick: () => watch(r.code) }, L("watch")) : null),
      ask);
  };

  async function refresh() {
    if (!card.isConnected && timer) { clearInterval(timer); timer = null; return; }
    let rooms = null;
    try {
      const res = await fetch("/api/rooms");
      rooms = res.ok ? (await res.json()).rooms : null;
    } catch { rooms = null; }
    if (!rooms) { status.textContent = L("public_failed"); return; }
    // a line being filled in (its name asked) is kept as it is
    if (list.querySelector(".public-ask:not([hidden])")) return;
    list.replaceChildren(...rooms.map(line));
    status.textContent = rooms.length ? "" : L("public_none");
  }

  const card = html("section", { class: "card public-card", "data-list": "public", "aria-labelledby": "public-title" },
    html("div", { class: "card-head" }, html("h2", { id: "public-title" }, L("public_title")),
      html("button", { type: "button", class: "btn small", "data-action": "public-refresh", onclick: refresh }, L("refresh"))),
    status, list);
  refresh();
  timer = setInterval(refresh, REFRESH_MS);
  return card;
}
