// A box over the page (the final scores, a sheet enlarged, how to play): Escape, its close button or a click beside
// it closes it, and the focus goes back where it was. Drawn in its own place (`parent`, the page's body by default),
// so that it outlives the page under it being drawn again; update() draws it again with new content.
//
//   const ov = openOverlay(content, {"data-overlay": "help", ...}, {parent, label, dialog, card})
//   ov.update(content); ov.close();

import { h, render } from "./ui.js";
import { t, getLang } from "./i18n.js";

export function openOverlay(content, attrs = {}, { parent = document.body, label = null, dialog = false, card = null, onClose = null } = {}) {
  const place = document.createElement("div");
  parent.append(place);
  const opener = document.activeElement;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    document.removeEventListener("keydown", onKey);
    render(null, place);
    place.remove();
    if (dialog) opener?.focus?.();
    onClose?.();
  };
  const onKey = (e) => { if (e.key === "Escape") close(); };
  const draw = (inner) => render(h("div", {
    class: "overlay", ...attrs, ...(dialog ? { role: "dialog", "aria-modal": "true", "aria-label": label } : {}),
    onClick: (e) => { if (e.target === e.currentTarget) close(); },
  }, h("div", { class: `overlay-card${card ? ` ${card}` : ""}` },
    h("button", { type: "button", class: "overlay-close", "data-action": "close", "aria-label": t("close", getLang()), onClick: close }, "✕"),
    inner)), place);
  draw(content);
  document.addEventListener("keydown", onKey);
  if (dialog) place.querySelector(".overlay-close")?.focus();
  return { close, update: (inner) => { if (!closed) draw(inner); }, node: () => place.firstChild, get open() { return !closed; } };
}
