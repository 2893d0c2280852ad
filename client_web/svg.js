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
// attributes, texts and children that differ: the page restyles and repaints only those. Listeners are not
// compared: morph only trees without them (or whose listeners do not depend on what changed).
export function morph(a, b) {
  for (const { name, value } of b.attributes) if (a.getAttribute(name) !== value) a.setAttribute(name, value);
  for (const { name } of [...a.attributes]) if (!b.hasAttribute(name)) a.removeAttribute(name);
  const want = [...b.childNodes];
  const have = a.childNodes;
  want.forEach((y, i) => {
    const x = have[i];
    if (!x) a.append(y);
    else if (x.nodeType !== y.nodeType || x.nodeName !== y.nodeName) x.replaceWith(y);
    else if (x.nodeType === Node.ELEMENT_NODE) morph(x, y);
    else if (x.data !== y.data) x.data = y.data;
  });
  while (have.length > want.length) a.lastChild.remove();
}
