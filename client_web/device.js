// Your seat on any device: "Continue on another device" shows the player (and only them) a link and a QR code
// carrying their seat token. The link (/?room=CODE#seat=TOKEN: the token in the fragment, which browsers
// never send to a server) opens the room on the other device and takes the seat with the token as Resume
// does, asking the server to move it there (join with `move`): the seat gets a new token, and this device's
// connection is told (notice `seat_moved`) and shows that the seat moved on; it is not an error.
//
//   takeSeatFromLink(saveRoom)   // at start: a #seat= link keeps its token for the room, once, and leaves the URL
//   moveFlag(code)               // {move: true} for the next join of a room opened by such a link, else {}
//   deviceButton(lang, getLink)  // the button that opens the dialog (getLink() -> the link, or null)
//   movedScreen(lang, {watch, home, spectators})

import { html } from "./svg.js";
import { t } from "./i18n.js";
import { qrSvg } from "./qr.js";
import { copyButton, tokenFromLink } from "./links.js";

const MOVING = "rajas.moving"; // sessionStorage: the room code whose next join moves the seat here

export function seatLink(code, token) {
  return `${location.origin}/?room=${encodeURIComponent(code)}#seat=${encodeURIComponent(token)}`;
}

export function takeSeatFromLink(saveRoom) {
  const link = tokenFromLink("seat", (token) => /^[A-Za-z0-9_-]{8,128}$/.test(token));
  if (!link) return;
  saveRoom(link.room, { token: link.token });
  try { sessionStorage.setItem(MOVING, link.room); } catch { /* the join then resumes without moving */ }
}

export function moveFlag(code) {
  let moving = null;
  try { moving = sessionStorage.getItem(MOVING); } catch { moving = null; }
  return moving && moving === code ? { move: true } : {};
}

export function moveDone() {
  try { sessionStorage.removeItem(MOVING); } catch { /* nothing kept */ }
}

export function deviceDialog(lang, link) {
  const titleId = "device-title";
  const textId = "device-text";
  const input = html("input", { class: "link-input", value: link, readonly: true, "aria-label": t("device_link", lang), "data-seat-link": "", onfocus: (e) => e.target.select() });
  const close = html("button", { type: "button", class: "btn primary", "data-action": "device-close" }, t("close", lang));
  const qr = html("div", { class: "device-qr", "data-qr": "" }, qrSvg(link, { label: t("device_qr", lang) }));
  const dialog = html("dialog", { class: "device-dialog", "data-dialog": "device", "aria-labelledby": titleId, "aria-describedby": textId },
    html("h2", { id: titleId }, t("device_title", lang)),
    html("p", { id: textId }, t("device_text", lang)),
    qr,
    html("div", { class: "link-box" }, input, copyButton(link, lang, { class: "btn", "data-action": "copy-seat-link" })),
    html("p", { class: "muted small" }, t("device_secret", lang)),
    html("div", { class: "actions" }, close));
  close.addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  close.focus();
  return dialog;
}

// A phone outline (the button's mark; on a narrow screen the mark alone, its name in aria-label).
function phoneMark() {
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 16 24");
  svg.setAttribute("width", "12");
  svg.setAttribute("height", "18");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "device-mark");
  const body = document.createElementNS(NS, "rect");
  for (const [k, v] of Object.entries({ x: 1.5, y: 1.5, width: 13, height: 21, rx: 2.5, fill: "none", stroke: "currentColor", "stroke-width": 2 })) body.setAttribute(k, String(v));
  const dot = document.createElementNS(NS, "circle");
  for (const [k, v] of Object.entries({ cx: 8, cy: 18.5, r: 1.4, fill: "currentColor" })) dot.setAttribute(k, String(v));
  svg.append(body, dot);
  return svg;
}

export function deviceButton(lang, getLink) {
  return html("button", { type: "button", class: "btn small device-btn", "data-action": "another-device", "aria-haspopup": "dialog",
    "aria-label": t("device_open", lang), title: t("device_open", lang),
    onclick: () => { const link = getLink(); if (link) deviceDialog(lang, link); } },
  phoneMark(), html("span", { class: "device-label" }, t("device_short", lang))); // (the name says it whole and contains it)
}

// What the first device shows once its seat moved: not an error, and the way on from here.
export function movedScreen(lang, { watch, home, spectators, topBar }) {
  return html("div", { class: "screen moved", "data-screen": "moved" }, topBar,
    html("main", { class: "home-main narrow" }, html("section", { class: "card moved-card", role: "status" },
      html("h2", null, t("moved_title", lang)),
      html("p", null, t("moved_text", lang)),
      html("div", { class: "actions" },
        spectators ? html("button", { type: "button", class: "btn", "data-action": "moved-watch", onclick: watch }, t("watch", lang)) : null,
        html("button", { type: "button", class: "btn primary", "data-action": "moved-home", onclick: home }, t("moved_home", lang))))));
}
