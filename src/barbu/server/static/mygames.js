// "My games" in the lobby: the tables this browser sits at or created, each with the link back to
// its own seat (the seat's cookie proves it, so no key is needed) and, for the tables it created
// and that are not over, a button to delete them (the server says when it may not).
import { el } from "./dom.js";
import { t } from "./i18n.js";

const STATUS = { open: () => t("waiting for players"), playing: () => t("being played"), finished: () => t("finished"), abandoned: () => t("abandoned") };

async function remove(id, row, note) {
  const res = await fetch(`/api/tables/${encodeURIComponent(id)}`, { method: "DELETE", credentials: "same-origin" });
  if (res.ok) row.remove();
  else {
    let message = t("the table could not be deleted");
    try {
      const body = await res.json();
      if (body.error && body.error.message) message = body.error.message;
    } catch (e) {
      // keep the general message
    }
    note.textContent = message;
  }
}

async function show() {
  const main = document.querySelector("main.lobby");
  if (!main) return;
  let mine = [];
  try {
    const res = await fetch("/api/my-tables", { credentials: "same-origin" });
    if (res.ok) mine = await res.json();
  } catch (e) {
    return;
  }
  if (!mine.length) return;
  const titles = {}; // the rule sets' titles, in the page's language
  try {
    for (const rs of await fetch("/api/rules").then((r) => r.json())) titles[rs.name] = rs.title;
  } catch (e) {
    // the ids stand in
  }
  const list = el("ul", { class: "my-games" });
  for (const g of mine) {
    const note = el("span", { class: "error-box", role: "alert" });
    const row = el(
      "li",
      {},
      el("a", { href: g.link }, g.seat === null ? t("Watch table {id}", { id: g.id }) : t("Back to my seat at table {id} (seat {n})", { id: g.id, n: g.seat })),
      " ",
      el("span", { class: "muted" }, `${titles[g.variant] || g.variant} · ${(STATUS[g.status] || (() => g.status))()}`),
    );
    if (g.owner && g.status !== "finished") {
      const b = el("button", { type: "button", class: "secondary small" }, t("Delete"));
      b.addEventListener("click", () => remove(g.id, row, note));
      row.append(" ", b, " ", note);
    }
    list.appendChild(row);
  }
  main.prepend(el("section", { class: "panel", id: "my-games", "aria-labelledby": "my-games-h" }, el("h2", { id: "my-games-h" }, t("My games")), list));
}

show();
