// The Copy button of the links a page shows: the lobby's invite and spectator links, the device dialog's seat link.

import { h, Component } from "./ui.js";
import { t } from "./i18n.js";

// A button that copies `text` and says so for a moment; `attrs`: its class and data-action where it stands.
export class CopyButton extends Component {
  render({ text, lang, attrs }) {
    return h("button", { type: "button", ...attrs, onClick: async () => {
      try { await navigator.clipboard.writeText(text); } catch { /* not allowed: the text is selectable */ }
      this.setState({ copied: true });
      setTimeout(() => this.setState({ copied: false }), 1500);
    } }, t(this.state.copied ? "copied" : "copy", lang));
  }
}
