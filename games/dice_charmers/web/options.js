// The Dice Charmers' options in the table's forms: which sheet, Sun, Moon or a custom sheet file (docs/sheets.md).
// A file is read in the page and checked to be one JSON object of a size the server takes; whether it is a playable
// sheet only the server decides (engine/sheet.py): it refuses a bad one with `bad_settings` and a message naming
// the field ("custom sheet: karma: Field required"), shown under the file input. The last custom sheet sent (or
// received in a snapshot) is kept in page memory, so the lobby can offer it again after a switch to Sun or Moon.
//
//   h(Options, {lang, mode, settings, sheet, roomSheet, send, handle})
//       mode: "create" (the home page's form), "host" (the lobby's editor) or "guest" (the lobby's read-only list)
//       settings: the room's settings; sheet: the room's sheet file (its snapshot's), when known
//       roomSheet(): the room's sheet file as the server has it now (a snapshot is asked for when needed)
//       send(fields): the host's change, sent with the table's own settings; rejects with the server's refusal
//   handle.current.values() -> the game's part of the settings, or null (the form then says what is missing)
//   handle.current.refused(error) -> true when the refusal was the sheet's (shown under the file input)
//   handle.current.created() -> the room was made: its custom sheet is remembered

import { h, Component } from "/ui.js";
import { t } from "/i18n.js";
import { SETTINGS } from "/protocol.js";

// Values of the sheet <select> next to "sun" and "moon".
const FILE_CHOICE = "file"; // "Custom sheet (file)…": a file input appears under the select
const CUSTOM_CHOICE = "custom"; // the room's custom sheet, or the last one this page sent

// The compact JSON must fit in one frame of the protocol (protocol/codec.py MAX_FRAME, 64 KiB) with room to spare.
export const SHEET_FILE_MAX = 60 * 1024;

class SheetFileError extends Error {
  constructor(key, vars, detail = null) {
    super(key);
    this.key = key; // the catalogue's key of the message
    this.vars = vars;
    this.detail = detail; // the browser's own words (the JSON parser's position), shown under the message
  }
}

// The sheet object in a chosen file; a SheetFileError says what is wrong with the file otherwise.
async function readSheetFile(file) {
  const f = file.name;
  const n = SHEET_FILE_MAX / 1024;
  if (file.size > 4 * SHEET_FILE_MAX) throw new SheetFileError("sheet_err_size", { f, n }); // not worth reading
  let text;
  try { text = await file.text(); } catch { throw new SheetFileError("sheet_err_read", { f }); }
  let data;
  try { data = JSON.parse(text); } catch (e) { throw new SheetFileError("sheet_err_json", { f }, e.message); }
  if (!data || typeof data !== "object" || Array.isArray(data)) throw new SheetFileError("sheet_err_object", { f });
  if (new TextEncoder().encode(JSON.stringify(data)).length > SHEET_FILE_MAX) throw new SheetFileError("sheet_err_size", { f, n });
  return data;
}

// What to call a sheet object: its title, else its name.
export function sheetTitle(sheet) {
  if (sheet && typeof sheet.title === "string" && sheet.title.trim()) return sheet.title.trim();
  if (sheet && typeof sheet.name === "string" && sheet.name) return sheet.name;
  return "?";
}

// A room's sheet in words (the public rooms' list too): Sun / Moon, or a custom sheet's title when its file is known.
export function sheetName(setting, lang, file = null) {
  if (typeof setting === "string") return t(`sheet_${setting}`, lang);
  if (setting && typeof setting.custom === "string") return t("sheet_custom", lang, { t: file && file.name === setting.custom ? sheetTitle(file) : setting.custom });
  return "";
}

// The server refused a custom sheet: its message names the field ("custom sheet: tracks.fame: ...").
const isSheetRefusal = (e) => e?.code === "bad_settings" && /^custom sheet:/.test(e.message || "");
const refusal = (e, file) => ({ kind: "error", key: "sheet_refused", vars: { f: file || "?" }, detail: String(e.message || e.code).replace(/^custom sheet:\s*/, "") });
const fileError = (e) => (e instanceof SheetFileError ? { kind: "error", key: e.key, vars: e.vars, detail: e.detail } : { kind: "error", key: "sheet_err_read", vars: { f: "?" } });

let remembered = null; // {sheet, file}: the last custom sheet sent or received (page memory only)

export function rememberSheet(sheet, file = null) {
  remembered = { sheet, file };
}

// The home form's choice, kept while the page is drawn again (and when the home page is shown again).
const home = { choice: SETTINGS.sheets[0], sheet: null, file: null, status: null };

// A status ({kind: "ok" | "error" | "busy", key, vars, detail}) under the file input.
function Status({ status, lang }) {
  if (!status) return h("p", { class: "sheet-status", "aria-live": "polite", hidden: true });
  const mark = status.kind === "ok" ? "✓ " : status.kind === "error" ? "✗ " : "";
  return h("p", { class: `sheet-status ${status.kind}`, "aria-live": "polite", "data-status": status.kind, role: status.kind === "error" ? "alert" : null },
    h("span", { class: "sheet-status-text" }, mark + t(status.key, lang, status.vars)),
    status.detail ? [" ", h("code", { class: "sheet-status-detail", "data-detail": "" }, status.detail)] : null);
}

export class Options extends Component {
  constructor(props) {
    super(props);
    // the lobby's file choice is the host's alone and lasts while the lobby is shown
    this.state = props.mode === "create" ? { open: home.choice === FILE_CHOICE, status: home.status } : { open: false, status: null };
    this.input = null;
    if (props.handle) props.handle.current = this; // the table's form asks it for its values through it
  }

  // Opens the file chooser straight away (after "Custom sheet (file)…" was chosen: that needs a user's gesture).
  pick() {
    const input = this.input;
    try {
      if (typeof input.showPicker === "function") input.showPicker(); else input.click();
    } catch { input?.focus(); /* no gesture (or not allowed): the input is there to click */ }
  }

  paint(status) {
    if (this.props.mode === "create") home.status = status;
    this.setState({ status });
  }

  // ---- the home page's form ----------------------------------------------------------------------------

  async values() {
    if (this.props.mode !== "create") {
      const st = this.props.settings;
      if (typeof st.sheet === "string") return { sheet: st.sheet };
      const sheet = await this.props.roomSheet(); // the room's own (a custom room's settings are sent with it again)
      return sheet ? { sheet } : null;
    }
    if (home.choice !== FILE_CHOICE) return { sheet: home.choice };
    if (home.sheet) return { sheet: home.sheet };
    // no file yet, or the chosen one is not a sheet file: the status under the input says which
    this.paint(this.state.status?.kind === "error" ? this.state.status : { kind: "error", key: "sheet_err_none" });
    this.input?.focus();
    return null;
  }

  refused(e) {
    if (home.choice !== FILE_CHOICE || !isSheetRefusal(e)) return false;
    this.paint(refusal(e, home.file));
    return true;
  }

  created() {
    if (home.choice === FILE_CHOICE && home.sheet) rememberSheet(home.sheet, home.file);
  }

  // ---- the lobby's editor ------------------------------------------------------------------------------

  async choose(value) {
    const { mode, settings, send } = this.props;
    if (mode === "create") {
      home.choice = value;
      const file = value === FILE_CHOICE;
      this.setState({ open: file });
      if (file && !home.sheet) this.pick();
      return;
    }
    this.setState({ open: value === FILE_CHOICE, status: null });
    if (value === FILE_CHOICE) { this.pick(); return; }
    const spec = SETTINGS.sheets.includes(value) ? value
      : typeof settings.sheet !== "string" ? await this.props.roomSheet() : remembered?.sheet;
    await send(spec ? { sheet: spec } : null).catch(() => {}); // refused: the table's toast says why
  }

  async chosen(file) {
    const { mode, send } = this.props;
    if (mode === "create") {
      home.sheet = null;
      home.file = file.name;
      try {
        home.sheet = await readSheetFile(file);
        this.paint({ kind: "ok", key: "sheet_loaded", vars: { t: sheetTitle(home.sheet), f: file.name } });
      } catch (e) {
        this.paint(fileError(e));
      }
      return;
    }
    let data;
    try {
      data = await readSheetFile(file);
    } catch (e) {
      this.paint(fileError(e));
      return;
    }
    this.paint({ kind: "busy", key: "sheet_sending", vars: { f: file.name } });
    try {
      await send({ sheet: data }, { quiet: true });
    } catch (e) {
      // refused: the room keeps its settings; the message names the field that is wrong
      this.paint(isSheetRefusal(e) ? refusal(e, file.name) : { kind: "error", key: "sheet_not_sent", vars: { f: file.name }, detail: e.text || e.message });
      return;
    }
    rememberSheet(data, file.name);
    this.setState({ open: false, status: null });
  }

  render({ lang, mode, settings, sheet }) {
    const L = (k, v) => t(k, lang, v);
    if (mode === "guest") {
      const custom = typeof settings.sheet !== "string";
      return [h("dt", null, L("sheet")), h("dd", { "data-setting": "sheet", "data-sheet-name": custom ? settings.sheet.custom : settings.sheet }, sheetName(settings.sheet, lang, sheet))];
    }
    // Sun, Moon, the custom sheet (the room's, or the last one sent from this page), another file
    const choices = SETTINGS.sheets.map((s) => [s, L(`sheet_${s}`)]);
    let value;
    if (mode === "create") {
      value = home.choice;
    } else {
      const custom = typeof settings.sheet !== "string";
      if (custom) choices.push([CUSTOM_CHOICE, sheetName(settings.sheet, lang, sheet)]);
      else if (remembered) choices.push([CUSTOM_CHOICE, L("sheet_custom", { t: sheetTitle(remembered.sheet) })]);
      value = this.state.open ? FILE_CHOICE : custom ? CUSTOM_CHOICE : settings.sheet;
    }
    choices.push([FILE_CHOICE, L("sheet_file")]);
    const label = choices.find(([v]) => v === value)?.[1] || "";
    const select = h("select", { name: "sheet", [mode === "create" ? "data-field" : "data-setting-input"]: "sheet", value, title: mode === "create" ? null : label,
      onChange: (e) => this.choose(e.target.value) },
    choices.map(([v, text]) => h("option", { value: v, selected: v === value }, text)));
    return h("div", { class: "game-options", "data-options": "dice_charmers" },
      h("label", { class: "field field-sheet" }, h("span", { class: "field-label" }, L("sheet")), select),
      h("div", { class: "sheet-file", "data-sheet-file": "", hidden: !this.state.open },
        h("label", { class: "field" }, h("span", { class: "field-label" }, L("sheet_file_label")),
          h("input", { type: "file", accept: ".json,application/json", class: "sheet-file-input", "data-field": "sheet-file", ref: (n) => { this.input = n; },
            onChange: (e) => { const file = e.target.files && e.target.files[0]; if (file) this.chosen(file); } })),
        h(Status, { status: this.state.status, lang }),
        h("p", { class: "muted small sheet-hint" }, L("sheet_file_hint"))));
  }
}
