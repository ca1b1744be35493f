// Every string of the interface, one table per language; t(key, {name: ...}) fills
// the {name} places. The language is the browser's unless the player chose one.
// Only the language in use is fetched (English, the fallback, always is).
import { STRINGS as en } from "./lang/en.js";

export const LANGUAGES = { en: "English", pl: "Polski", fi: "Suomi", cs: "Čeština", pt: "Português", ro: "Română" };
const CHOSEN = "stacks:lang";
const loaded = { en };

function browserLanguage() {
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const code = tag.toLowerCase().split("-")[0];
    if (code in LANGUAGES) return code;
  }
  return "en";
}

async function table(code) {
  loaded[code] = loaded[code] || (await import(`./lang/${code}.js`)).STRINGS;
  return loaded[code];
}

let lang = localStorage.getItem(CHOSEN) in LANGUAGES ? localStorage.getItem(CHOSEN) : browserLanguage();
let strings = await table(lang);
document.documentElement.lang = lang;

export function language() {
  return lang;
}

export async function chooseLanguage(code) {
  if (!(code in LANGUAGES)) return;
  strings = await table(code);
  lang = code;
  localStorage.setItem(CHOSEN, code);
  document.documentElement.lang = code;
}

// A count {n} picks the key's plural form where the table has one ("cards_n_one":
// "1 card"), by the language's own plural rules.
export function t(key, values = {}) {
  const form = typeof values.n === "number" ? `${key}_${new Intl.PluralRules(lang).select(values.n)}` : null;
  const text = (form && strings[form]) ?? strings[key] ?? en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in values ? String(values[name]) : `{${name}}`));
}

// Whether the tables have words for ``key`` (the language in use's, or English).
export function has(key) {
  return key in strings || key in en;
}

// Every key of the English table that a language lacks: for the tests.
export async function missing() {
  const found = {};
  for (const code of Object.keys(LANGUAGES)) {
    const other = await table(code);
    found[code] = Object.keys(en).filter((key) => !(key in other));
  }
  return found;
}
