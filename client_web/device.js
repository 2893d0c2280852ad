// Your seat on any device: "Another device" shows the player (and only them) a link and a QR code carrying their seat
// token. The link (/?room=CODE#seat=TOKEN: the token in the fragment, which browsers never send to a server) opens the
// room on the other device and takes the seat with the token as Resume does, asking the server to move it there
// (join with `move`): the seat gets a new token, and this device's connection is told (notice `seat_moved`) and
// shows that the seat moved on; it is not an error. The QR code is made in the page by a maintained encoder
// (vendor/qrcode.mjs, loaded when the dialog first opens): the link holds a secret, which no server is asked to draw.
//
//   h(DeviceButton, {lang, link})   // the button that opens the dialog (link() -> the link, or null)
//
// The link's token is taken at the other device's start (session.js, seatFromLink); the first device then shows
// "your seat moved" (join.js, Moved).

import { h, render, Component } from "./ui.js";
import { t } from "./i18n.js";
import { CopyButton } from "./links.js";

export function seatLink(code, token) {
  return `${location.origin}/?room=${encodeURIComponent(code)}#seat=${encodeURIComponent(token)}`;
}

// The QR code of `text` (its UTF-8 bytes, error correction M, the smallest version that holds them) as an <svg> of
// one path (a run of dark modules per step: "M x y h run v1 h -run z"), with its 4-module quiet zone.
export async function qrSvg(text, label) {
  const { default: qrcode } = await import("./vendor/qrcode.mjs");
  qrcode.stringToBytes = (s) => Array.from(new TextEncoder().encode(s)); // the library's way to bytes of a charset
  const code = qrcode(0, "M");
  code.addData(text, "Byte");
  code.make();
  const n = code.getModuleCount();
  const d = [];
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      if (!code.isDark(y, x)) continue;
      let end = x;
      while (end + 1 < n && code.isDark(y, end + 1)) end += 1;
      d.push(`M${x + 4} ${y + 4}h${end - x + 1}v1h-${end - x + 1}z`);
      x = end;
    }
  }
  const size = n + 8;
  return { size: n, svg: h("svg", { viewBox: `0 0 ${size} ${size}`, class: "qr-code", role: "img", "aria-label": label, "shape-rendering": "crispEdges" },
    h("rect", { width: size, height: size, fill: "#fff" }), h("path", { d: d.join(""), fill: "#000" })) };
}

class Qr extends Component {
  componentDidMount() {
    qrSvg(this.props.text, this.props.label).then(({ svg }) => this.setState({ svg }));
  }

  render() {
    return h("div", { class: "device-qr", "data-qr": "" }, this.state.svg || null);
  }
}

function deviceDialog(lang, link) {
  const dialog = document.createElement("dialog");
  dialog.className = "device-dialog";
  dialog.dataset.dialog = "device";
  dialog.setAttribute("aria-labelledby", "device-title");
  dialog.setAttribute("aria-describedby", "device-text");
  render([
    h("h2", { id: "device-title" }, t("device_title", lang)),
    h("p", { id: "device-text" }, t("device_text", lang)),
    h(Qr, { text: link, label: t("device_qr", lang) }),
    h("div", { class: "link-box" },
      h("input", { class: "link-input", defaultValue: link, readonly: true, "aria-label": t("device_link", lang), "data-seat-link": "", onFocus: (e) => e.target.select() }),
      h(CopyButton, { text: link, lang, attrs: { class: "btn", "data-action": "copy-seat-link" } })),
    h("p", { class: "muted small" }, t("device_secret", lang)),
    h("div", { class: "actions" }, h("button", { type: "button", class: "btn primary", "data-action": "device-close", onClick: () => dialog.close() }, t("close", lang))),
  ], dialog);
  dialog.addEventListener("close", () => { render(null, dialog); dialog.remove(); });
  document.body.append(dialog);
  dialog.showModal();
  dialog.querySelector("[data-action=device-close]").focus();
}

// A phone outline (the button's mark; on a narrow screen the mark alone, its name in aria-label).
const phoneMark = () => h("svg", { viewBox: "0 0 16 24", width: 12, height: 18, "aria-hidden": "true", class: "device-mark" },
  h("rect", { x: 1.5, y: 1.5, width: 13, height: 21, rx: 2.5, fill: "none", stroke: "currentColor", "stroke-width": 2 }),
  h("circle", { cx: 8, cy: 18.5, r: 1.4, fill: "currentColor" }));

export function DeviceButton({ lang, link }) {
  return h("button", { type: "button", class: "btn small device-btn", "data-action": "another-device", "aria-haspopup": "dialog",
    "aria-label": t("device_open", lang), title: t("device_open", lang), onClick: () => { const l = link(); if (l) deviceDialog(lang, l); } },
  phoneMark(), h("span", { class: "device-label" }, t("device_short", lang))); // (the name says it whole and contains it)
}
