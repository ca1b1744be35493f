// Every string of the interface, one table per language; t(key, {name: ...}) fills
// the {name} places. The language is the browser's unless the player chose one.
import { STRINGS as pl } from "./lang/pl.js";
import { STRINGS as fi } from "./lang/fi.js";
import { STRINGS as cs } from "./lang/cs.js";
import { STRINGS as pt } from "./lang/pt.js";
import { STRINGS as ro } from "./lang/ro.js";
import { STRINGS as en } from "./lang/en.js";

export const LANGUAGES = { en: "English", pl: "Polski", fi: "Suomi", cs: "Čeština", pt: "Português", ro: "Română" };
const TABLES = { en, pl, fi, cs, pt, ro };
const CHOSEN = "stacks:lang";

function browserLanguage() {
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const code = tag.toLowerCase().split("-")[0];
    if (code in TABLES) return code;
  }
  return "en";
}

let lang = localStorage.getItem(CHOSEN) in TABLES ? localStorage.getItem(CHOSEN) : browserLanguage();
document.documentElement.lang = lang;

export function language() {
  return lang;
}

export function chooseLanguage(code) {
  if (!(code in TABLES)) return;
  lang = code;
  localStorage.setItem(CHOSEN, code);
  document.documentElement.lang = code;
}

export function t(key, values = {}) {
  const text = TABLES[lang][key] ?? en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in values ? String(values[name]) : `{${name}}`));
}

// The same key in every language: for tests that check no table lacks one.
export function missing() {
  return Object.fromEntries(Object.entries(TABLES).map(([code, table]) =>
    [code, Object.keys(en).filter((key) => !(key in table))]));
}
