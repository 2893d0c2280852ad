// Tiny helpers to build SVG and HTML elements.

export const SVG_NS = "http://www.w3.org/2000/svg";

// el("rect", {x: 1, class: "a"}, child, "text", [more children])
export function el(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      node.setAttribute(k, typeof v === "number" ? String(Math.round(v * 100) / 100) : String(v));
    }
  }
  append(node, children);
  return node;
}

export function html(tag, attrs, ...children) {
  const node = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, String(v));
    }
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(node, c);
    else if (typeof c === "string" || typeof c === "number") node.appendChild(document.createTextNode(String(c)));
    else node.appendChild(c);
  }
}

export function text(x, y, s, attrs) {
  return el("text", { x, y, ...attrs }, String(s));
}

export function title(s) {
  return el("title", null, s);
}

// A small standalone <svg> (for buttons in HTML panels) holding `child` drawn in a size x size box.
export function inlineSvg(size, child, w) {
  const width = w || size;
  return el("svg", { viewBox: `0 0 ${width} ${size}`, width, height: size, class: "inline-icon" }, child);
}

// Makes `a` look like `b` (both drawn by the same code, so mostly the same tree), touching only the
// attributes, texts and children that differ: the page restyles and repaints only those. A child with a
// `data-key` stands for all it holds: an old child with the same key is kept as it is (moved if need be) and not
// compared further. Listeners are not compared: morph only trees without them (or whose listeners do not depend
// on what changed).
export function morph(a, b) {
  const attrs = b.attributes;
  let extra = attrs.length !== a.attributes.length;
  for (let j = 0; j < attrs.length; j++) {
    const { name, value } = attrs[j];
    const was = a.getAttribute(name);
    if (was !== value) { a.setAttribute(name, value); if (was === null) extra = true; }
  }
  if (extra) for (const { name } of [...a.attributes]) if (!b.hasAttribute(name)) a.removeAttribute(name);
  if (b.querySelector(":scope > [data-key]")) { morphKeyed(a, b); return; }
  let x = a.firstChild;
  for (let y = b.firstChild; y;) {
    const next = y.nextSibling;
    if (!x) a.appendChild(y);
    else if (x.nodeType !== y.nodeType || x.nodeName !== y.nodeName) { const after = x.nextSibling; a.replaceChild(y, x); x = after; }
    else {
      if (x.nodeType === Node.ELEMENT_NODE) morph(x, y);
      else if (x.data !== y.data) x.data = y.data;
      x = x.nextSibling;
    }
    y = next;
  }
  while (x) { const after = x.nextSibling; x.remove(); x = after; }
}

function morphKeyed(a, b) {
  const want = [...b.childNodes];
  const keys = new Set();
  for (const y of want) { const k = keyOf(y); if (k) keys.add(k); }
  const old = new Map();
  for (const x of a.childNodes) { const k = keyOf(x); if (k && keys.has(k)) old.set(k, x); }
  let i = 0;
  for (const y of want) {
    let x = a.childNodes[i];
    const kept = old.get(keyOf(y));
    if (kept) {
      // children whose keys are gone, before the one kept: removed
      while (x && x !== kept && keyOf(x) && !old.has(keyOf(x))) { const next = x.nextSibling; x.remove(); x = next; }
      if (kept !== x) a.insertBefore(kept, x || null);
    } else if (!x) a.append(y);
    else if (keyOf(x) && old.has(keyOf(x))) a.insertBefore(y, x);
    else if (x.nodeType !== y.nodeType || x.nodeName !== y.nodeName) x.replaceWith(y);
    else if (x.nodeType === Node.ELEMENT_NODE) morph(x, y);
    else if (x.data !== y.data) x.data = y.data;
    i++;
  }
  while (a.childNodes.length > i) a.lastChild.remove();
}

function keyOf(n) {
  return n.nodeType === Node.ELEMENT_NODE ? n.getAttribute("data-key") : null;
}

// An attribute (or, for "text", the text) written only when it changes, so that the page restyles nothing
// when nothing changed; true when it did.
export function put(n, name, value) {
  const was = name === "text" ? n.textContent : n.getAttribute(name);
  if (was === String(value)) return false;
  if (name === "text") n.textContent = value; else n.setAttribute(name, value);
  return true;
}
