// A player's profile: games played, results per rule set, ratings and their history.
import { el } from "./dom.js";
import { openPage, ruleSets } from "./club-nav.js";

const SVG = "http://www.w3.org/2000/svg";

function spark(points) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "spark");
  svg.setAttribute("viewBox", "0 0 100 40");
  svg.setAttribute("preserveAspectRatio", "none");
  const low = Math.min(...points), high = Math.max(...points), span = high - low || 1;
  const line = document.createElementNS(SVG, "polyline");
  line.setAttribute("points", points.map((p, i) => `${points.length === 1 ? 50 : (100 * i) / (points.length - 1)},${38 - (36 * (p - low)) / span}`).join(" "));
  svg.append(line);
  return svg;
}

async function start() {
  const page = await openPage();
  if (!page) return "";
  const { account, t } = page;
  const name = new URLSearchParams(location.search).get("name") || (account ? account.name : "");
  const main = document.getElementById("main");
  const res = await fetch(`/api/club/players/${encodeURIComponent(name)}`);
  if (!res.ok) { main.replaceChildren(el("section", { class: "panel" }, el("p", { role: "alert" }, t.noPlayer))); return; }
  const p = await res.json();
  document.title = `Barbu — ${p.name}`;
  const titles = Object.fromEntries((await ruleSets()).map((r) => [r.name, r.title]));
  const ratings = Object.fromEntries(p.ratings.map((r) => [r.variant, r]));
  const results = el("table", { id: "results" },
    el("thead", {}, el("tr", {}, el("th", {}, t.ruleSet), el("th", { class: "num" }, t.played), el("th", { class: "num" }, t.wins), el("th", { class: "num wide" }, t.meanPlace), el("th", { class: "num" }, t.rating))),
    el("tbody", {}, p.results.map((r) => el("tr", {}, el("td", {}, titles[r.variant] || r.variant), el("td", { class: "num" }, r.played || r.rated), el("td", { class: "num" }, r.wins), el("td", { class: "num wide" }, r.mean_place ?? "–"),
      el("td", { class: "num" }, ratings[r.variant] ? ratings[r.variant].rating.toFixed(1) : "–", ratings[r.variant] && ratings[r.variant].provisional ? el("span", { class: "badge" }, t.provisional) : "")))));
  const byVariant = {};
  for (const h of p.history) (byVariant[h.variant] ||= []).push(h.rating);
  const history = Object.entries(byVariant).map(([v, points]) => el("div", {}, el("h3", {}, titles[v] || v), spark(points)));
  main.replaceChildren(el("section", { class: "panel" }, el("h2", { id: "player-name" }, p.name, p.bot ? el("span", { class: "badge" }, t.bot) : ""), el("p", {}, `${t.games}: `, el("strong", { id: "player-games" }, p.games))),
    el("section", { class: "panel" }, el("h2", {}, t.results), p.results.length ? results : el("p", { class: "muted" }, t.none)),
    el("section", { class: "panel" }, el("h2", {}, t.history), history.length ? history : el("p", { class: "muted" }, t.none)));
}

start();
