// The ladder: players and bots of a rule set by rating, all time or the last 30 days.
import { el } from "./dom.js";
import { openPage, ruleSets } from "./club-nav.js";

async function show(t, variant, period) {
  const data = await fetch(`/api/club/ladder?variant=${encodeURIComponent(variant)}&period=${period}`).then((r) => r.json());
  const rows = data.players || [];
  const target = document.getElementById("ladder-rows");
  if (rows.length === 0) { target.replaceChildren(el("p", { class: "muted" }, t.none)); return; }
  target.replaceChildren(el("table", { id: "ladder" },
    el("thead", {}, el("tr", {}, el("th", { class: "num" }, t.place), el("th", {}, t.player), el("th", { class: "num" }, t.rating), el("th", { class: "num" }, t.games), el("th", { class: "num wide" }, "μ / σ"))),
    el("tbody", {}, rows.map((p) => el("tr", { data: { name: p.name } },
      el("td", { class: "num" }, p.place),
      el("td", {}, el("a", { href: `/player?name=${encodeURIComponent(p.bot ? `bot:${p.bot}` : p.name)}` }, p.name), p.bot ? el("span", { class: "badge" }, t.bot) : "", p.provisional ? el("span", { class: "badge", title: t.provisional }, `${t.provisional}`) : ""),
      el("td", { class: "num" }, p.rating.toFixed(1)),
      el("td", { class: "num" }, period === "all" ? p.games : p.period_games),
      el("td", { class: "num wide muted" }, `${p.mu.toFixed(1)} / ${p.sigma.toFixed(1)}`))))));
}

async function start() {
  const page = await openPage();
  if (!page) return "";
  const { account, t } = page;
  document.title = `Barbu — ${t.ladder}`;
  const rules = await ruleSets();
  const params = new URLSearchParams(location.search);
  const variant = el("select", { id: "ladder-variant" }, rules.map((r) => el("option", { value: r.name, selected: r.name === (params.get("variant") || "classic") }, r.title)));
  const period = el("select", { id: "ladder-period" }, el("option", { value: "all" }, t.allTime), el("option", { value: "30d" }, t.last30));
  const update = () => show(t, variant.value, period.value);
  variant.addEventListener("change", update);
  period.addEventListener("change", update);
  document.getElementById("main").replaceChildren(el("section", { class: "panel" }, el("h2", {}, t.ladder), el("div", { class: "form-row" }, variant, period), el("div", { id: "ladder-rows" }), el("p", { class: "muted small", id: "policy" }, t.policy)));
  await update();
}

start();
