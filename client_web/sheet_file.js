// A custom sheet file chosen by the host (home screen and lobby): read from disk, checked to be one JSON
// object of a size the server takes, and remembered by the page so the lobby can offer it again. Whether it
// is a playable sheet only the server decides (engine/sheet.py): it refuses a bad one with `bad_settings`
// and a message naming the field ("custom sheet: karma: Field required"), shown under the file input.

import { html } from "./svg.js";
import { t } from "./i18n.js";

// Values of the sheet <select> next to "sun" and "moon".
export const FILE_CHOICE = "file"; // "Custom sheet (file)…": a file input appears under the select
export const CUSTOM_CHOICE = "custom"; // the room's custom sheet, or the last one this page sent

// The compact JSON must fit in one frame of the protocol (protocol/codec.py MAX_FRAME, 64 KiB) with room to spare.
export const SHEET_FILE_MAX = 60 * 1024;

export class SheetFileError extends Error {
  constructor(key, vars, detail = null) {
    super(key);
    this.key = key; // i18n key of the message
    this.vars = vars;
    this.detail = detail; // the browser's own words (the JSON parser's position), shown under the message
  }
}

// The sheet object in a chosen file; a SheetFileError says what is wrong with the file otherwise.
export async function readSheetFile(file) {
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

// The server refused a custom sheet: its message names the field ("custom sheet: tracks.fame: ...").
export function isSheetRefusal(e) {
  return e?.code === "bad_settings" && /^custom sheet:/.test(e.message || "");
}

export function refusalStatus(e, file) {
  return { kind: "error", key: "sheet_refused", vars: { f: file || "?" }, detail: String(e.message || e.code).replace(/^custom sheet:\s*/, "") };
}

export function fileErrorStatus(e) {
  return e instanceof SheetFileError ? { kind: "error", key: e.key, vars: e.vars, detail: e.detail } : { kind: "error", key: "sheet_err_read", vars: { f: "?" } };
}

// The last custom sheet this page sent, or was sent in a snapshot: the lobby offers it again after a switch
// to Sun or Moon. Page memory only (a reload forgets it; a custom room's snapshot brings its sheet back).
let remembered = null;

export function rememberSheet(sheet, file = null) {
  remembered = { sheet, file };
}

export function rememberedSheet() {
  return remembered;
}

// Draws a status ({kind: "ok" | "error" | "busy", key, vars, detail}) into its <p>.
export function paintStatus(node, status, lang) {
  node.replaceChildren();
  node.className = "sheet-status";
  node.removeAttribute("role");
  delete node.dataset.status;
  if (!status) {
    node.hidden = true;
    return;
  }
  node.hidden = false;
  node.classList.add(status.kind);
  node.dataset.status = status.kind;
  if (status.kind === "error") node.setAttribute("role", "alert");
  const mark = status.kind === "ok" ? "✓ " : status.kind === "error" ? "✗ " : "";
  node.append(html("span", { class: "sheet-status-text" }, mark + t(status.key, lang, status.vars)));
  if (status.detail) node.append(" ", html("code", { class: "sheet-status-detail", "data-detail": "" }, status.detail));
}

// The row under a sheet <select>: the native file input (.json) and what became of the chosen file.
// `onFile(file)` is called with the chosen File; the caller paints the status with `row.paint(status)`.
export function sheetFileRow({ lang, status, onFile, open }) {
  const input = html("input", { type: "file", accept: ".json,application/json", class: "sheet-file-input", "data-field": "sheet-file",
    onchange: () => { const file = input.files && input.files[0]; if (file) onFile(file); } });
  const statusNode = html("p", { class: "sheet-status", "aria-live": "polite" });
  const row = html("div", { class: "sheet-file", "data-sheet-file": "", hidden: !open },
    html("label", { class: "field" }, html("span", { class: "field-label" }, t("sheet_file_label", lang)), input),
    statusNode,
    html("p", { class: "muted small sheet-hint" }, t("sheet_file_hint", lang)));
  row.input = input;
  row.paint = (s) => paintStatus(statusNode, s, lang);
  row.show = (on) => { row.hidden = !on; };
  // Opens the file chooser straight away (after "Custom sheet (file)…" was chosen: that needs a user's gesture).
  row.pick = () => {
    try {
      if (typeof input.showPicker === "function") input.showPicker(); else input.click();
    } catch { input.focus(); /* no gesture (or not allowed): the input is there to click */ }
  };
  row.paint(status);
  return row;
}
