// Aids for playing on a phone, by keyboard and by screen reader: the options brought into view and the focus
// on the next thing to decide, the own sheet zoomable (buttons and pinch), a tap on a sheet icon explained in
// words, and the round's pick order with the current pick marked.

import { html } from "./svg.js";
import { t } from "./i18n.js";

// The bottom of whatever sticks to the top of the window (bar, prompt): options under it are hidden.
function stickyBottom(prompt) {
  let b = 0;
  for (const n of [prompt, document.querySelector(".game-bar")]) {
    if (!n) continue;
    const r = n.getBoundingClientRect();
    const pos = getComputedStyle(n).position;
    if ((pos === "sticky" || pos === "fixed") && r.top <= 1) b = Math.max(b, r.bottom);
  }
  return b;
}

const FOCUSABLE = "a[href], button, input, select, textarea, summary, [tabindex], [contenteditable]";

// After the options were drawn: bring the ones a player chooses from (the HTML buttons) into view, and put
// the focus on the first of them unless the player is somewhere else (an overlay, a control of the bar).
export function settleFocus(root, prompt, layers) {
  const all = [...root.querySelectorAll("[data-option]")].filter((n) => n.getClientRects().length);
  const buttons = all.filter((n) => !(n instanceof SVGElement));
  const list = buttons.length ? buttons : all;
  if (!list.length) return;
  const rects = () => list.map((n) => n.getBoundingClientRect());
  for (let i = 0; i < 2; i++) {
    const top = stickyBottom(prompt) + 8;
    const rs = rects();
    const a = Math.min(...rs.map((r) => r.top));
    const b = Math.max(...rs.map((r) => r.bottom));
    const bottom = window.innerHeight - 8;
    if (a >= top && b <= bottom) break;
    // all of them when they fit, else from the first one down
    const dy = b - a <= bottom - top && a >= top ? b - bottom : a - top;
    window.scrollBy({ top: dy, left: 0, behavior: "instant" });
  }
  const active = document.activeElement;
  // (a node kept when it stops being a control, like a die of the tray no longer to choose, keeps the focus until
  // here: lost too; a blur() would have forced a style and layout pass in the middle of the update)
  const lost = !active || active === document.body || !active.isConnected || !active.matches(FOCUSABLE);
  if (lost && !layers.querySelector("[data-overlay]")) list[0].focus({ preventScroll: true });
}

// A tap or click on a sheet's icon (anything with a title) says what it is in `out`.
export function explainOnTap(svg, out) {
  svg.addEventListener("click", (ev) => {
    for (let n = ev.target; n && n !== svg; n = n.parentNode) {
      const tt = n.querySelector?.(":scope > title");
      if (tt && tt.textContent) { out.textContent = tt.textContent; out.classList.add("explained"); return; }
    }
  });
}

const LEVELS = [1, 1.5, 2, 2.5, 3];

// The own sheet in a pannable box with zoom buttons and pinch; `zoom.level` survives re-renders.
export function zoomable(mount, zoom, lang) {
  const { svg, wrap } = mount;
  const box = html("div", { class: "sheet-zoom", "data-zoom": zoom.level });
  svg.replaceWith(box);
  box.append(svg);
  const apply = (level, cx = 0.5, cy = 0.5) => {
    const before = { w: box.scrollWidth, h: box.scrollHeight };
    const fx = (box.scrollLeft + box.clientWidth * cx) / before.w;
    const fy = (box.scrollTop + box.clientHeight * cy) / before.h;
    zoom.level = Math.max(LEVELS[0], Math.min(LEVELS[LEVELS.length - 1], level));
    box.dataset.zoom = String(zoom.level);
    box.classList.toggle("zoomed", zoom.level > 1);
    svg.style.width = zoom.level > 1 ? `${zoom.level * 100}%` : "";
    box.scrollLeft = fx * box.scrollWidth - box.clientWidth * cx;
    box.scrollTop = fy * box.scrollHeight - box.clientHeight * cy;
  };
  const step = (d) => {
    const i = LEVELS.findIndex((l) => l >= zoom.level - 1e-6);
    apply(LEVELS[Math.max(0, Math.min(LEVELS.length - 1, (i < 0 ? 0 : i) + d))]);
  };
  const tools = html("div", { class: "zoom-tools", role: "group", "aria-label": t("sheet_zoom", lang) },
    html("button", { type: "button", class: "btn small zoom-btn", "data-action": "zoom-out", "aria-label": t("zoom_out", lang), title: t("zoom_out", lang), onclick: () => step(-1) }, "−"),
    html("button", { type: "button", class: "btn small zoom-btn", "data-action": "zoom-in", "aria-label": t("zoom_in", lang), title: t("zoom_in", lang), onclick: () => step(1) }, "+"),
    html("button", { type: "button", class: "btn small zoom-btn", "data-action": "zoom-fit", "aria-label": t("zoom_fit", lang), title: t("zoom_fit", lang), onclick: () => apply(1) }, "⤢"));
  wrap.insertBefore(tools, box);
  // pinch with two fingers; one finger pans the box natively
  let pinch = null;
  const dist = (ts) => Math.hypot(ts[0].clientX - ts[1].clientX, ts[0].clientY - ts[1].clientY);
  box.addEventListener("touchstart", (e) => { if (e.touches.length === 2) pinch = { d: dist(e.touches), level: zoom.level }; }, { passive: true });
  box.addEventListener("touchmove", (e) => {
    if (!pinch || e.touches.length !== 2) return;
    e.preventDefault();
    const r = box.getBoundingClientRect();
    const cx = ((e.touches[0].clientX + e.touches[1].clientX) / 2 - r.left) / r.width;
    const cy = ((e.touches[0].clientY + e.touches[1].clientY) / 2 - r.top) / r.height;
    apply(pinch.level * (dist(e.touches) / pinch.d), cx, cy);
  }, { passive: false });
  box.addEventListener("touchend", (e) => { if (e.touches.length < 2) pinch = null; });
  if (zoom.level > 1) requestAnimationFrame(() => apply(zoom.level));
  return box;
}

// The order in which the players take dice this round (A, B, A, B with two players), the current pick marked.
export function pickOrder(state, names, colours, lang) {
  const order = state.order || [];
  if (!order.length) return null;
  const list = html("ol", { class: "pick-order", "aria-label": t("pick_order", lang), "data-pick-order": order.join(",") });
  order.forEach((seat) => {
    list.append(html("li", { class: "pick", style: `--seat:${colours[seat]}` }, html("span", { class: "pick-name" }, names[seat] ?? "?")));
  });
  markPick(list, state.turn ?? 0, lang);
  return list;
}

// Marks the current pick (and the ones done) on a pick order drawn by pickOrder, in place: the list is kept while
// the round lasts and only the marks move.
export function markPick(list, turn, lang) {
  [...list.children].forEach((li, i) => {
    const now = i === turn;
    const cls = `pick${now ? " now" : ""}${i < turn ? " done" : ""}`;
    if (li.className !== cls) li.className = cls;
    if (now !== li.hasAttribute("aria-current")) {
      if (now) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
    }
    const said = li.querySelector(":scope > .visually-hidden");
    if (now && !said) li.append(html("span", { class: "visually-hidden" }, ` (${t("pick_now", lang)})`));
    if (!now && said) said.remove();
  });
}
