// The account page: sign up, log in and out, the password, preferences, the quick game and my games.
import { el } from "./dom.js";
import { followAccountLanguage, language, problem, send } from "./club-text.js";
import { openPage, ruleSets } from "./club-nav.js";
import { languages } from "./i18n.js";

const WAITS = [5, 15, 30, 60, 120, 300];
let timer = null;

function field(label, attrs) {
  return el("label", {}, label, " ", el("input", attrs));
}

function form(id, title, fields, button, onSubmit) {
  const error = el("span", { class: "error-box", role: "alert", id: `${id}-error` });
  const f = el("form", { id, autocomplete: "on" }, el("h2", {}, title), fields, el("div", { class: "form-row" }, el("button", { class: "primary", type: "submit" }, button), error));
  f.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    const said = await onSubmit(Object.fromEntries(new FormData(f)));
    if (said) error.textContent = said;
  });
  return f;
}

function guestView(t) {
  const sign = form("signup", t.signUp, [field(t.name, { name: "name", required: true, minlength: 2, maxlength: 24, autocomplete: "username" }), " ", field(t.password, { name: "password", type: "password", required: true, minlength: 8, autocomplete: "new-password" })], t.signUp, async (v) => {
    const [ok, data] = await send("POST", "/api/club/signup", v);
    if (!ok) return problem(data);
    return start();
  });
  const log = form("login", t.logIn, [field(t.name, { name: "name", required: true, autocomplete: "username" }), " ", field(t.password, { name: "password", type: "password", required: true, autocomplete: "current-password" })], t.logIn, async (v) => {
    const [ok, data] = await send("POST", "/api/club/login", v);
    if (!ok) return problem(data);
    return start();
  });
  return [el("section", { class: "panel" }, el("p", {}, t.guest)), el("section", { class: "panel" }, log), el("section", { class: "panel" }, sign), el("section", { class: "panel" }, el("h2", {}, t.quick), el("p", { class: "muted" }, t.loginFirst))];
}

function select(id, options, value) {
  return el("select", { id, name: id }, options.map(([v, label]) => el("option", { value: String(v), selected: String(v) === String(value) }, label)));
}

function prefsPanel(t, account) {
  const p = account.prefs || {};
  const status = el("span", { class: "ok", id: "prefs-status", role: "status" });
  const lang = select("language", languages.map((l) => [l.code, l.name]), p.language || language());
  const sounds = el("input", { type: "checkbox", id: "sounds", checked: p.sounds !== false });
  const cards = select("cards", [["classic", t.cardsClassic], ["large", t.cardsLarge], ["four-colour", t.cardsFour]], p.cards || "classic");
  const save = async () => {
    const [ok, data] = await send("PUT", "/api/club/prefs", { language: lang.value, sounds: sounds.checked, cards: cards.value });
    status.textContent = ok ? t.saved : problem(data);
    if (ok) followAccountLanguage({ prefs: { language: lang.value } });
  };
  for (const c of [lang, sounds, cards]) c.addEventListener("change", save);
  return el("section", { class: "panel" }, el("h2", {}, t.prefs), el("div", { class: "form-row" }, el("label", {}, t.language, " ", lang), el("label", {}, sounds, " ", t.sounds), el("label", {}, t.cards, " ", cards), status));
}

function quickPanel(t, rules) {
  const status = el("p", { id: "quick-status", role: "status" });
  const variant = select("quick-variant", rules.map((r) => [r.name, r.title]), "classic");
  const rated = el("input", { type: "checkbox", id: "quick-rated", checked: true });
  const wait = select("quick-wait", WAITS.map((w) => [w, `${w} ${t.seconds}`]), 30);
  const find = el("button", { class: "primary", type: "button", id: "quick-find" }, t.find);
  const cancel = el("button", { class: "secondary hidden", type: "button", id: "quick-cancel" }, t.cancel);
  const show = (s) => {
    if (s.status === "matched") {
      clearInterval(timer);
      timer = null;
      cancel.classList.add("hidden");
      status.replaceChildren(t.matched, " ", el("a", { href: s.link, id: "quick-go", class: "primary" }, t.goSeat));
    } else if (s.status === "waiting") {
      cancel.classList.remove("hidden");
      status.textContent = `${t.waiting} ${Math.round(s.waited)} ${t.seconds}`;
    } else {
      cancel.classList.add("hidden");
      status.textContent = "";
    }
  };
  const poll = async () => {
    const [ok, data] = await send("GET", "/api/club/quick");
    if (ok) show(data);
  };
  find.addEventListener("click", async () => {
    const [ok, data] = await send("POST", "/api/club/quick", { variant: variant.value, rated: rated.checked, wait: Number(wait.value) });
    if (!ok) { status.textContent = problem(data); return; }
    show(data);
    if (!timer) timer = setInterval(poll, 500);
  });
  cancel.addEventListener("click", async () => { await send("DELETE", "/api/club/quick"); clearInterval(timer); timer = null; show({ status: "none" }); });
  poll().then(() => { if (!timer && !status.querySelector("a") && !cancel.classList.contains("hidden")) timer = setInterval(poll, 500); });
  return el("section", { class: "panel" }, el("h2", {}, t.quick), el("div", { class: "form-row" }, el("label", {}, t.ruleSet, " ", variant), el("label", {}, rated, " ", t.rated), el("label", {}, t.wait, " ", wait), find, cancel), status);
}

async function gamesPanel(t, rules) {
  const [ok, data] = await send("GET", "/api/club/games");
  const titles = Object.fromEntries(rules.map((r) => [r.name, r.title]));
  const rows = ok ? data.games : [];
  const body = rows.length === 0 ? el("p", { class: "muted" }, t.none) : el("table", { id: "my-games" }, el("tbody", {}, rows.map((g) => el("tr", {},
    el("td", {}, titles[g.variant] || g.variant),
    el("td", {}, t[g.status] || g.status, g.rated && g.outcome !== "unrated" ? "" : el("span", { class: "badge" }, t.unrated)),
    el("td", { class: "wide muted" }, g.reason || ""),
    el("td", {}, g.link ? el("a", { href: g.link }, t.resume) : el("a", { href: `/t/${g.table}` }, "↗"))))));
  return el("section", { class: "panel" }, el("h2", {}, t.myGames), body);
}

function accountPanel(t, account) {
  const out = el("button", { class: "secondary", type: "button", id: "logout" }, t.logOut);
  out.addEventListener("click", async () => { await send("POST", "/api/club/logout"); start(); });
  const pw = form("password", t.changePassword, [field(t.currentPassword, { name: "old", type: "password", required: true, autocomplete: "current-password" }), " ", field(t.newPassword, { name: "new", type: "password", required: true, minlength: 8, autocomplete: "new-password" })], t.changePassword, async (v) => {
    const [ok, data] = await send("POST", "/api/club/password", v);
    return ok ? t.changed : problem(data);
  });
  return el("section", { class: "panel" }, el("p", { class: "form-row" }, t.loggedAs, " ", el("strong", { id: "me" }, account.name), out), el("details", {}, el("summary", {}, t.changePassword), pw));
}

async function start() {
  const page = await openPage();
  if (!page) return "";
  const { account, t } = page;
  document.title = `Barbu — ${t.account}`;
  const rules = await ruleSets();
  const main = document.getElementById("main");
  if (!account) {
    main.replaceChildren(...guestView(t));
    return "";
  }
  main.replaceChildren(accountPanel(t, account), quickPanel(t, rules), await gamesPanel(t, rules), prefsPanel(t, account));
  return "";
}

start();
