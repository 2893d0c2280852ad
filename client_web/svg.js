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
