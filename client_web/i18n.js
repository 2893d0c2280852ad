// The page's words: t(key, lang, vars) looks a label up in the catalogues loaded for the language, one per language
// for the table (i18n/<lang>.js) and one per language for each game (games/<id>/web/i18n/<lang>.js, registered with
// addWords); num() and plural() write numbers and plural forms through Intl. A label's "{n}" is replaced by vars.n.

export const LANGS = ["en", "nl", "de"];
export const LANG_NAMES = { en: "English", nl: "Nederlands", de: "Deutsch" };

// The version of the page's files (the static server's ?v=, server/edge/static.py), for modules loaded by a computed
// name: the same URL as a static import of them, hence the same module.
const V = new URL(import.meta.url).search;

const words = Object.fromEntries(LANGS.map((l) => [l, {}]));
const loaders = [(lang) => import(`./i18n/${lang}.js${V}`)]; // the table's catalogue first, then each game's
const loading = new Map(); // `${loader index}:${lang}` -> its promise
let current = "en";

// A game's catalogues: `load(lang)` resolves to the module of that language (its default export the words).
export function addWords(load) {
  if (!loaders.includes(load)) loaders.push(load);
}

// Every catalogue registered so far, in `lang` (a language not offered: English).
export function loadWords(lang) {
  const l = LANGS.includes(lang) ? lang : "en";
  return Promise.all(loaders.map((load, i) => {
    const key = `${i}:${l}`;
    if (!loading.has(key)) {
      loading.set(key, load(l).then((m) => { Object.assign(words[l], m.default); }, (e) => { loading.delete(key); throw e; }));
    }
    return loading.get(key);
  }));
}

// The language of the page's labels (one of LANGS), what the player chose or their browser's.
export function setLang(lang) {
  if (LANGS.includes(lang)) current = lang;
  return current;
}

export function getLang() {
  return current;
}

export function has(key, lang) {
  return words[lang || current]?.[key] !== undefined;
}

export function t(key, lang, vars) {
  let s = words[lang || current]?.[key] ?? words.en[key];
  if (s === undefined) s = String(key).replace(/_/g, " ");
  if (vars) s = s.replace(/\{(\w+)\}/g, (m, k) => (vars[k] !== undefined ? String(vars[k]) : m));
  return s;
}

// Every key of the catalogues loaded in `lang` (the tests: no language may miss a label).
export function keys(lang) {
  return Object.keys(words[lang] || {});
}

const rules = new Map();
const numbers = new Map();

function cached(map, lang, make) {
  if (!map.has(lang)) map.set(lang, make());
  return map.get(lang);
}

// A number as the language writes it (at most two decimals): "13,5" in Dutch and German.
export function num(x, lang) {
  return cached(numbers, lang, () => new Intl.NumberFormat(lang, { maximumFractionDigits: 2 })).format(x);
}

// The label `key_one` / `key_other` (as Intl.PluralRules chooses for n), with n written in the language.
export function plural(key, lang, n, vars = {}) {
  const form = cached(rules, lang, () => new Intl.PluralRules(lang)).select(n);
  const k = has(`${key}_${form}`, lang) ? `${key}_${form}` : `${key}_other`;
  return t(k, lang, { ...vars, n: num(n, lang) });
}
