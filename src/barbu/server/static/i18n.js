// French and English on every page (docs/i18n.md): the page's catalogue, loaded from the server
// before any script that imports this module runs (a top-level await), and the functions that
// read it. Messages are keyed by their English text, like Python's gettext:
//   t("Create table")                      the text in the page's language
//   t("Seat {n}", { n: 2 })                placeholders in braces, filled as text
//   tp("contract", "No tricks")            a fact of the core, in its context
//   tn("{n} deal", "{n} deals", n, { n })  a text with a plural
// Elements of the page's HTML marked `data-i18n` are translated by translatePage() (their text is
// the message id); `data-i18n-attrs="placeholder aria-label"` translates those attributes too.
// The language follows the browser (Accept-Language) until the switch (languageSwitch()) is used;
// the choice is kept in localStorage and in the `barbu_lang` cookie, which the server reads too.

const COOKIE = "barbu_lang";
const STORE = "barbu.lang";
const SEPARATOR = "\u0004";
const PLURAL = {
  en: (n) => (n === 1 ? 0 : 1),
  fr: (n) => (n === 0 || n === 1 ? 0 : n % 1000000 === 0 ? 1 : 2),
};

function chosenLanguage() {
  try {
    return localStorage.getItem(STORE);
  } catch (e) {
    return null;
  }
}

function remember(code) {
  try {
    localStorage.setItem(STORE, code);
  } catch (e) {
    // a browser without storage keeps the cookie only
  }
  document.cookie = `${COOKIE}=${encodeURIComponent(code)}; path=/; max-age=31536000; samesite=lax`;
}

async function load() {
  const chosen = chosenLanguage();
  if (chosen) remember(chosen); // the server reads the cookie for its own messages
  try {
    const res = await fetch(`/api/i18n${chosen ? `?lang=${encodeURIComponent(chosen)}` : ""}`);
    if (res.ok) return await res.json();
  } catch (e) {
    // no catalogue: the page speaks English, its ids
  }
  return { lang: "en", languages: [{ code: "en", name: "English" }], messages: {} };
}

const CATALOGUE = await load();
const MESSAGES = CATALOGUE.messages;

/** The page's language code ("en", "fr"). */
export const lang = CATALOGUE.lang;

/** The languages on offer, each `{ code, name }` named in itself. */
export const languages = CATALOGUE.languages;

/**
 * The core's words for cards and calls, keyed by the core's ids, in the page's language:
 * `words.suits.H`, `words.ranks.Q`, `words.calls.maximum`, `words.rows[0]` (back, middle, front),
 * `words.poker[i]` (poker hands, low to high).
 */
export const words = CATALOGUE.words || { suits: {}, ranks: {}, calls: {}, rows: [], poker: [] };

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** `msgid` in the page's language, `{placeholders}` filled from `params`. */
export function t(msgid, params) {
  const found = MESSAGES[msgid];
  return fill(typeof found === "string" && found ? found : msgid, params);
}

/** `msgid` of `context` (a fact of the core: "contract", "variant", "tally", "flag", "suit"…). */
export function tp(context, msgid, params) {
  const found = MESSAGES[context + SEPARATOR + msgid];
  return fill(typeof found === "string" && found ? found : msgid, params);
}

/** The form of a text with a plural that fits the count `n`. */
export function tn(singular, plural, n, params) {
  const found = MESSAGES[singular];
  const index = (PLURAL[lang] || PLURAL.en)(n);
  if (Array.isArray(found) && found[index]) return fill(found[index], params);
  return fill(n === 1 ? singular : plural, params);
}

const originals = new WeakMap();
const originalAttrs = new WeakMap();

/** Translate the elements of `root` marked `data-i18n` and the attributes named by `data-i18n-attrs`. */
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    if (!originals.has(node)) originals.set(node, node.textContent.replace(/\s+/g, " ").trim());
    node.textContent = t(originals.get(node));
  }
  for (const node of root.querySelectorAll("[data-i18n-attrs]")) {
    if (!originalAttrs.has(node)) originalAttrs.set(node, {});
    const kept = originalAttrs.get(node);
    for (const name of node.dataset.i18nAttrs.split(/\s+/).filter(Boolean)) {
      if (!(name in kept)) kept[name] = (node.getAttribute(name) || "").replace(/\s+/g, " ").trim();
      if (kept[name]) node.setAttribute(name, t(kept[name]));
    }
  }
  document.documentElement.lang = lang;
}

/** A language switch (a labelled select) that remembers the choice and reloads the page in it. */
export function languageSwitch() {
  const select = document.createElement("select");
  select.className = "lang-switch";
  select.setAttribute("aria-label", t("Language"));
  for (const l of languages) {
    const option = document.createElement("option");
    option.value = l.code;
    option.textContent = l.name;
    option.selected = l.code === lang;
    option.lang = l.code;
    select.appendChild(option);
  }
  select.addEventListener("change", () => {
    remember(select.value);
    location.reload();
  });
  return select;
}

/** Translate the page and put the switch in its place (`#lang-switch`, else the end of the header). */
export function setUpPage() {
  translatePage();
  const slot = document.getElementById("lang-switch") || document.querySelector("header") || document.body;
  if (!slot.querySelector(".lang-switch")) slot.appendChild(languageSwitch());
}

window.barbuLanguage = { lang, ready: true };
