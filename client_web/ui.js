// The page's rendering library: Preact (vendor/preact.mjs; its version and origin in vendor/README.md), and the two
// helpers every view uses. The table and every game import the library from here alone, so it is named in one place.

import { h, Component } from "./vendor/preact.mjs";

export { h, render, Component, Fragment, createRef } from "./vendor/preact.mjs";

// An SVG element, its numbers written with at most two decimals (the same drawing in shorter markup).
export function s(tag, attrs, ...children) {
  if (attrs) {
    for (const k in attrs) {
      const v = attrs[k];
      if (typeof v === "number") attrs[k] = Math.round(v * 100) / 100;
    }
  }
  return h(tag, attrs, ...children);
}

// A part drawn again only when its key `k` changed: `draw()` must read nothing that `k` does not hold. The page then
// re-creates, diffs and restyles only the parts whose keys changed.
class Kept extends Component {
  shouldComponentUpdate(next) {
    return next.k !== this.props.k;
  }

  render({ draw }) {
    return draw();
  }
}

export function kept(key, k, draw) {
  return h(Kept, { key, k, draw });
}
