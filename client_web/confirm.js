// A question asked in the page before something that cannot be taken back (leaving a game in progress): a modal
// <dialog> (the focus stays in it, Escape or Cancel says no), resolved with true only by the confirm button.

import { html } from "./svg.js";
import { t } from "./i18n.js";

export function confirmDialog(lang, { title, text, yes }) {
  return new Promise((resolve) => {
    const titleId = "confirm-title";
    const textId = "confirm-text";
    const no = html("button", { type: "button", class: "btn", "data-action": "confirm-no", autofocus: true }, t("cancel", lang));
    const ok = html("button", { type: "button", class: "btn primary", "data-action": "confirm-yes" }, yes);
    const dialog = html("dialog", { class: "confirm-dialog", "data-dialog": "confirm", "aria-labelledby": titleId, "aria-describedby": textId },
      html("h2", { id: titleId }, title), html("p", { id: textId }, text), html("div", { class: "actions" }, no, ok));
    let answer = false;
    no.addEventListener("click", () => dialog.close());
    ok.addEventListener("click", () => { answer = true; dialog.close(); });
    dialog.addEventListener("close", () => { dialog.remove(); resolve(answer); });
    document.body.append(dialog);
    dialog.showModal();
    no.focus(); // the safe answer has the focus: Enter alone does not leave
  });
}
