// A question asked in the page before something that cannot be taken back (leaving a game in progress): a modal
// <dialog> (the focus stays in it, Escape or Cancel says no), resolved with true only by the confirm button.

import { h, render } from "./ui.js";
import { t } from "./i18n.js";

export function confirmDialog(lang, { title, text, yes }) {
  return new Promise((resolve) => {
    const dialog = document.createElement("dialog");
    dialog.className = "confirm-dialog";
    dialog.dataset.dialog = "confirm";
    dialog.setAttribute("aria-labelledby", "confirm-title");
    dialog.setAttribute("aria-describedby", "confirm-text");
    let answer = false;
    render([
      h("h2", { id: "confirm-title" }, title),
      h("p", { id: "confirm-text" }, text),
      h("div", { class: "actions" },
        h("button", { type: "button", class: "btn", "data-action": "confirm-no", onClick: () => dialog.close() }, t("cancel", lang)),
        h("button", { type: "button", class: "btn primary", "data-action": "confirm-yes", onClick: () => { answer = true; dialog.close(); } }, yes)),
    ], dialog);
    dialog.addEventListener("close", () => { render(null, dialog); dialog.remove(); resolve(answer); });
    document.body.append(dialog);
    dialog.showModal();
    dialog.querySelector("[data-action=confirm-no]").focus(); // the safe answer has the focus: Enter alone does not leave
  });
}
