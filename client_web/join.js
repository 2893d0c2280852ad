// The screens at a room's door: the join screen (take a seat or watch; the invite link opened mid-game offers, where
// the host allows it (room setting `takeover`), the seats whose players left: "Take over Ben's seat", a new seat
// token for this browser, the old one stops working), the error screen (a room that is gone), the wait while the
// page joins, and what a device shows once its seat moved to another (device.js): not an error, and the way on.

import { h } from "./ui.js";
import { t } from "./i18n.js";
import { SETTINGS, STATUS } from "./protocol.js";
import { goHome, takeSeat, toast, watch } from "./session.js";
import { TopBar } from "./bar.js";

function leftSeats(preview) {
  if (!preview || preview.status !== STATUS.PLAYING || !preview.settings?.takeover) return [];
  return preview.seats.map((s, i) => ({ seat: i, name: s.name, left: !!s.left })).filter((s) => s.left);
}

function Takeover({ lang, preview }) {
  const seats = leftSeats(preview);
  const take = (e, seat) => {
    const input = e.currentTarget.closest("[data-takeover]").querySelector("[data-field=takeover-name]");
    const n = input.value.trim();
    if (!n) { input.focus(); return; }
    takeSeat(n, seat);
  };
  return h("div", { class: "takeover", "data-takeover": "" },
    h("p", null, t("takeover_text", lang)),
    h("label", { class: "field", for: "takeover-name" }, h("span", { class: "field-label" }, t("your_name", lang)),
      h("input", { name: "name", defaultValue: localStorage.getItem("rajas.name") || "", maxlength: SETTINGS.name_max, autocomplete: "nickname", "data-field": "takeover-name", id: "takeover-name" })),
    h("div", { class: "actions" }, seats.map((s) => h("button", { type: "button", class: "btn primary", "data-action": "take-over", "data-seat": s.seat,
      onClick: (e) => take(e, s.seat) }, t("takeover_seat", lang, { p: s.name })))));
}

export function Join({ state }) {
  const { lang, preview: p, code } = state;
  const L = (k, v) => t(k, lang, v);
  const lobby = p && p.status === STATUS.LOBBY;
  const submit = (e) => {
    e.preventDefault();
    const n = e.target.elements.name?.value.trim();
    if (!n) { toast(L("err_name")); return; }
    takeSeat(n);
  };
  return h("div", { class: "screen join", "data-screen": "join" }, h(TopBar, { state, onHome: goHome }),
    h("main", { class: "home-main narrow" }, h("form", { class: "card", "data-form": "seat", onSubmit: submit },
      h("h2", null, `${L("room")} ${code}`),
      p ? h("p", { class: "muted" }, L("seats_of", { n: p.seats.length, m: p.settings.seats })) : null,
      p ? h("ul", { class: "seat-list" }, p.seats.map((s) => h("li", { class: "seat" }, h("span", { class: `dot ${s.connected ? "on" : "off"}` }), s.name))) : null,
      lobby
        ? h("label", { class: "field" }, h("span", { class: "field-label" }, L("your_name")),
          h("input", { name: "name", defaultValue: localStorage.getItem("rajas.name") || "", maxlength: SETTINGS.name_max, autocomplete: "nickname", "data-field": "seat-name" }))
        : leftSeats(p).length ? h(Takeover, { lang, preview: p }) : h("p", null, L("game_running")),
      h("div", { class: "actions" },
        lobby ? h("button", { type: "submit", class: "btn primary", "data-action": "take-seat", disabled: p.seats.length >= p.settings.seats }, L("take_seat")) : null,
        !p || p.settings.spectators ? h("button", { type: "button", class: "btn", "data-action": "watch", onClick: () => watch() }, L("watch")) : null))));
}

export function Failed({ state }) {
  return h("div", { class: "screen error", "data-screen": "error" }, h(TopBar, { state, onHome: goHome }),
    h("main", { class: "home-main narrow" }, h("div", { class: "card" }, h("h2", null, state.error || "?"),
      h("button", { type: "button", class: "btn primary", onClick: goHome }, t("new_game", state.lang)))));
}

export function Loading({ state }) {
  return h("div", { class: "screen loading", "data-screen": "loading" }, h(TopBar, { state, onHome: goHome }),
    h("main", { class: "home-main narrow" }, h("div", { class: "spinner" })));
}

export function Moved({ lang, watch, home, spectators, bar }) {
  return h("div", { class: "screen moved", "data-screen": "moved" }, bar,
    h("main", { class: "home-main narrow" }, h("section", { class: "card moved-card", role: "status" },
      h("h2", null, t("moved_title", lang)),
      h("p", null, t("moved_text", lang)),
      h("div", { class: "actions" },
        spectators ? h("button", { type: "button", class: "btn", "data-action": "moved-watch", onClick: watch }, t("watch", lang)) : null,
        h("button", { type: "button", class: "btn primary", "data-action": "moved-home", onClick: home }, t("moved_home", lang))))));
}
