// Numbers and plurals in the player's language through Intl: "1 space apart", "13,5" in Dutch and German.

import { t } from "./i18n.js";

const rules = new Map();
const numbers = new Map();

function cached(map, lang, make) {
  if (!map.has(lang)) map.set(lang, make());
  return map.get(lang);
}

// A number as the language writes it (at most two decimals).
export function num(x, lang) {
  return cached(numbers, lang, () => new Intl.NumberFormat(lang, { maximumFractionDigits: 2 })).format(x);
}

// The label `key_one` / `key_other` (as Intl.PluralRules chooses for n), with n written in the language.
export function plural(key, lang, n, vars = {}) {
  const form = cached(rules, lang, () => new Intl.PluralRules(lang)).select(n);
  const k = `${key}_${form}`;
  const s = t(k, lang, { ...vars, n: num(n, lang) });
  return s === k.replace(/_/g, " ") ? t(`${key}_other`, lang, { ...vars, n: num(n, lang) }) : s;
}

// How far a player's fame and money have crossed (or how far apart they still are).
export function overlapWords(ov, lang) {
  const n = Math.round(Math.abs(ov) * 100) / 100;
  return ov >= 0 ? plural("crossed", lang, n) : plural("not_crossed", lang, n);
}
