// The plain invite link opened mid-game: where the host allows it (room setting `takeover`), the join screen
// offers the seats whose players left the game; taking one joins with the name and the seat (a new seat token
// for this browser; the old one stops working). Elsewhere the page offers to watch, as before.
//
//   takeoverOffer(lang, preview, take)   // a form, or null when nothing can be taken; take(name, seat)

import { html } from "./svg.js";
import { t } from "./i18n.js";
import { SETTINGS, STATUS } from "./protocol.js";

export function leftSeats(preview) {
  if (!preview || preview.status !== STATUS.PLAYING || !preview.settings?.takeover) return [];
  return preview.seats.map((s, i) => ({ seat: i, name: s.name, left: !!s.left })).filter((s) => s.left);
}

export function takeoverOffer(lang, preview, take) {
  const seats = leftSeats(preview);
  if (!seats.length) return null;
  const name = html("input", { name: "name", value: localStorage.getItem("rajas.name") || "", maxlength: SETTINGS.name_max, autocomplete: "nickname", "data-field": "takeover-name", id: "takeover-name" });
  const send = (seat) => {
    const n = name.value.trim();
    if (!n) { name.focus(); return; }
    take(n, seat);
  };
  return html("div", { class: "takeover", "data-takeover": "" },
    html("p", null, t("takeover_text", lang)),
    html("label", { class: "field", for: "takeover-name" }, html("span", { class: "field-label" }, t("your_name", lang)), name),
    html("div", { class: "actions" }, seats.map((s) => html("button", { type: "button", class: "btn primary", "data-action": "take-over", "data-seat": s.seat,
      onclick: () => send(s.seat) }, t("takeover_seat", lang, { p: s.name })))));
}
