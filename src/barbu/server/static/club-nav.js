// The club pages' header links and the page language.
import { followAccountLanguage, language, whoAmI, words } from "./club-text.js";
import { el } from "./dom.js";
import { setUpPage } from "./i18n.js";

/** Fill the header's links and set the document's language. */
export function nav(t, lang, account) {
  document.documentElement.lang = lang;
  setUpPage(); // the language switch in the header
  const links = [el("a", { href: "/" }, t.lobby), el("a", { href: "/ladder" }, t.ladder), el("a", { href: "/account", id: "nav-account" }, account ? account.name : t.account)];
  if (account) links.push(el("a", { href: `/player?name=${encodeURIComponent(account.name)}` }, t.profile));
  document.getElementById("nav").replaceChildren(...links);
}

/** The rule sets (name and title) from /api/rules. */
export async function ruleSets() {
  return (await fetch("/api/rules").then((r) => r.json())).map((r) => ({ name: r.name, title: r.title }));
}

/**
 * The start of every club page: who is logged in, the page's words, the header and language set
 * up; null when the page is reloading in the account's language instead.
 */
export async function openPage() {
  const account = await whoAmI();
  if (followAccountLanguage(account)) return null;
  const t = words();
  nav(t, language(), account);
  return { account, t };
}
