// One score sheet: the deals entered so far (raw scores, each business pair's settlement,
// running totals, the undoubled-negative shortcut), the form for the next deal, edits,
// undo and redo, statistics and exports. Every score, every list of what may be chosen and
// every refusal comes from the server (/api/sheets/…); the page only shows them.
import { el, joined } from "./dom.js";
import { setUpPage, t, words } from "./i18n.js";
import { DealForm } from "./sheet-entry.js";
import { call, choiceEl, doublesWords, ordinal, signed, statsEl } from "./sheetkit.js";

const $ = (id) => document.getElementById(id);
const sheetId = decodeURIComponent(location.pathname.split("/").pop());
const API = `/api/sheets/${encodeURIComponent(sheetId)}`;

const page = {
  id: sheetId,
  view: null,
  pending: 0, // requests and debounced previews under way (tests wait for 0)
  form: null,
  open: new Set(), // deals whose details are open

  async request(method, path, body) {
    this.pending += 1;
    try {
      return await call(method, path ? `${API}/${path}` : API, body);
    } finally {
      this.pending -= 1;
    }
  },

  // Send a change of the log; on success show the new sheet. Answers the API's reply.
  async change(change) {
    const res = await this.request("POST", "changes", { ...change, version: this.view.version });
    if (res.ok) this.show(res.data);
    else if (res.status === 409) this.stale(res.data);
    return res;
  },

  show(view) {
    this.view = view;
    render();
  },

  stale(data) {
    if (data.sheet) this.show(data.sheet);
    this.toast(data.error.message);
    this.form.showNext();
  },

  toast(text) {
    const box = $("toast");
    box.textContent = text;
    box.classList.remove("hidden");
    clearTimeout(box.timer);
    box.timer = setTimeout(() => box.classList.add("hidden"), 6000);
  },
};
window.barbuSheet = page; // for the curious (and for tests): read-only use

// ---------------------------------------------------------------- drawing the sheet

function render() {
  const v = page.view;
  const sheet = v.sheet;
  document.title = `Barbu — ${v.title}`;
  document.body.dataset.role = v.role; // owner, editor or viewer: the page offers what the role may do
  $("sheet-title").textContent = v.title;
  $("undo").disabled = !v.can_undo;
  $("redo").disabled = !v.can_redo;
  $("undo").title = v.undo ? t("Undo: {change}", { change: v.undo }) : t("Nothing to undo");
  $("redo").title = v.redo ? t("Redo: {change}", { change: v.redo }) : t("Nothing to redo");
  $("rules-link").href = `/rules/${encodeURIComponent(sheet.variant)}`;
  $("undo").setAttribute("aria-label", $("undo").title);
  $("redo").setAttribute("aria-label", $("redo").title);
  renderTotals(sheet);
  renderDeals(sheet);
  for (const [key, fmt] of [["record", "record"], ["csv", "csv"], ["html", "html"], ["pdf", "pdf"]]) {
    $(`x-${key}`).href = `${API}/export/${fmt}`;
  }
  $("title-input").value = v.title;
  const names = $("names-inputs");
  names.replaceChildren(
    ...sheet.players.map((n, s) => el("label", {}, el("span", { class: "small muted" }, t("Seat {n}", { n: s })), el("input", { value: n, maxlength: 40, "aria-label": t("Name of seat {n}", { n: s }) }))),
  );
  if ($("stats-box").open) loadStats();
  document.body.dataset.version = String(v.version);
}

function renderTotals(sheet) {
  const names = sheet.players;
  const played = sheet.deals.filter((d) => d.final).length;
  const cells = names.map((n, s) => {
    const rank = sheet.ranking[s];
    return el(
      "div",
      { class: `total${rank === 1 && played ? " first" : ""}` },
      el("span", { class: "who" }, n),
      el("span", { class: "pts", data: { seat: s, total: sheet.totals[s] } }, sheet.totals[s]),
      el("span", { class: "rank small" }, played ? ordinal(rank) : ""),
    );
  });
  const progress = `${sheet.deals.length}/${sheet.deal_count}`;
  const unit = sheet.penalty_points ? t("penalty points: lowest wins") : "";
  $("totals").replaceChildren(
    el("div", { class: "totals-inner", style: { "--n": names.length } }, el("div", { class: "progress small" }, progress, el("span", { class: "muted" }, t("deals"))), cells),
    unit ? el("div", { class: "unit small muted" }, unit) : "",
  );
}

function renderDeals(sheet) {
  const names = sheet.players;
  const n = names.length;
  const box = $("deals");
  if (!sheet.deals.length) {
    box.replaceChildren(el("p", { class: "muted" }, t("No deal yet.")));
    return;
  }
  box.replaceChildren(
    el("div", { class: "deal-head", style: { "--n": n } }, el("span", {}, "#"), el("span", {}, t("Declarer · contract")), names.map((x) => el("span", { class: "num" }, x))),
    el("ol", { class: "deal-list" }, sheet.deals.map((row) => dealEl(row, names))),
    sheet.notes.length ? el("p", { class: "muted small" }, joined(sheet.notes, () => el("br"))) : "",
  );
  for (const d of box.querySelectorAll("details")) {
    d.addEventListener("toggle", () => (d.open ? page.open.add(d.dataset.deal) : page.open.delete(d.dataset.deal)));
  }
  for (const b of box.querySelectorAll("button[data-edit]")) b.addEventListener("click", () => page.form.showEdit(Number(b.dataset.edit)));
  for (const b of box.querySelectorAll("button[data-insert]")) b.addEventListener("click", () => page.form.showInsert(Number(b.dataset.insert)));
  for (const b of box.querySelectorAll("button[data-delete]")) b.addEventListener("click", () => removeDeal(Number(b.dataset.delete)));
}

function dealEl(row, names) {
  const n = names.length;
  const status = { skipped: el("span", { class: "tag" }, t("not played")), pending: el("span", { class: "tag warn" }, t("waits for its tally")) }[row.status] || "";
  const finals = row.final
    ? row.final.map((v, s) => el("span", { class: `num${v > 0 ? " pos" : v < 0 ? " neg" : ""}`, data: { seat: s } }, signed(v)))
    : el("span", { class: "num muted", style: { "grid-column": `span ${n}` } }, "…");
  const doubles = row.doubles.length
    ? el("span", { class: "small muted dbl" }, row.doubles.map((d) => `${short(names[d.doubler])}>${d.redoubled ? ">" : ""}${short(names[d.doubled])}`).join(" "))
    : "";
  const body = [];
  if (row.final) {
    const line = (label, values, cls = "") => el("tr", { class: cls }, el("th", { scope: "row" }, label), values.map((v) => el("td", {}, signed(v))));
    body.push(
      el(
        "div",
        { class: "scroll-x" },
        el(
          "table",
          { class: "breakdown" },
          el("thead", {}, el("tr", {}, el("th"), names.map((x) => el("th", { scope: "col" }, x)))),
          el("tbody", {}, line(row.played ? t("hand") : t("divided"), row.raw), line(t("doubling"), row.adjustments), line(t("deal"), row.final, "strong"), line(t("total"), row.totals, "running")),
        ),
      ),
    );
  }
  if (row.shortcut) body.push(el("p", { class: "shortcut" }, row.shortcut));
  body.push(el("p", { class: "small" }, el("strong", {}, t("Doubles:")), ` ${doublesWords(row.doubles, names)}`));
  if (row.pairs.length) {
    body.push(
      el(
        "ul",
        { class: "pairs" },
        row.pairs.map((p) => {
          const x = p.multiplier === 2 ? " ×2" : "";
          return el("li", {}, `${names[p.doubler]} → ${names[p.doubled]}${x}: ${names[p.doubler]} ${signed(p.delta)}, ${names[p.doubled]} ${signed(-p.delta)}`);
        }),
      ),
    );
  }
  if (row.tally) body.push(el("p", { class: "small" }, el("strong", {}, t("Tally:")), ` ${tallyWords(row.tally, names, page.view.sheet.tally_table)}`));
  body.push(
    el(
      "div",
      { class: "form-row deal-actions" },
      el("button", { type: "button", class: "secondary", data: { edit: row.number } }, t("Edit")),
      el("button", { type: "button", class: "secondary", data: { insert: row.number } }, t("Insert a deal before")),
      el("button", { type: "button", class: "danger", data: { delete: row.number } }, t("Delete")),
    ),
  );
  return el(
    "li",
    { class: `deal ${row.status}`, data: { deal: row.number } },
    el(
      "details",
      { data: { deal: row.number }, open: page.open.has(String(row.number)) },
      el(
        "summary",
        { style: { "--n": n } },
        el("span", { class: "no" }, row.number),
        el("span", { class: "what" }, el("span", { class: "decl" }, names[row.declarer]), " · ", choiceEl(row), " ", status, doubles),
        finals,
      ),
      el("div", { class: "deal-body" }, body),
    ),
  );
}

function short(name) {
  return name.length > 4 ? name.slice(0, 3) : name;
}

// A tally in words, each key under its label (the sheet's tally_table, in the page's language).
function tallyWords(tally, names, table) {
  const seat = (s) => names[s];
  const per = (values) => values.map((v, s) => `${seat(s)} ${v}`).join(", ");
  const parts = [];
  for (const [key, value] of Object.entries(tally)) {
    const label = table && table[key] ? table[key].label : key;
    if (key === "order") parts.push(`${label}: ${value.map(seat).join(", ")}`);
    else if (key === "suits") parts.push(`${label}: ${value.map((r, s) => `${seat(s)} ${r.join("/")}`).join(", ")}`);
    else if (key === "arrangements") parts.push(`${label}: ${value.map((cards, s) => `${seat(s)}: ${cards.slice(0, 5).join(" ")} | ${cards.slice(5, 10).join(" ")} | ${cards.slice(10).join(" ")}`).join("; ")}`);
    else if (Array.isArray(value)) parts.push(`${label}: ${per(value)}`);
    else parts.push(`${label}: ${seat(value)}`);
  }
  return parts.join("; ");
}

// ---------------------------------------------------------------- actions on the sheet

async function removeDeal(number) {
  if (!confirm(t("Delete deal {n}? The later deals move up one place.", { n: number }))) return;
  let res = await page.change({ change: "delete", deal: number });
  if (!res.ok && res.data.error && res.data.error.later) {
    if (!confirm(`${res.data.error.message}\n\n${t("Delete it anyway and drop deals {n} and after? (Undo brings them back.)", { n: res.data.error.deal })}`)) return;
    res = await page.change({ change: "delete", deal: number, drop_later: true });
  }
  if (res.ok) await page.form.showNext();
  else if (res.status !== 409) page.toast(res.data.error.message);
}

async function history(word) {
  const res = await page.request("POST", word, { version: page.view.version });
  if (res.ok) {
    page.show(res.data);
    await page.form.showNext();
  } else if (res.status === 409) page.stale(res.data);
  else page.toast(res.data.error.message);
}

async function loadStats() {
  const res = await page.request("GET", "stats");
  if (!res.ok) {
    $("stats").replaceChildren(el("p", { class: "error-box" }, res.data.error.message));
    return;
  }
  const titles = Object.fromEntries(res.data.contracts.map((c) => [c.id, c.title]));
  $("stats").replaceChildren(...statsEl(res.data, titles));
}

async function retitle(ev) {
  ev.preventDefault();
  $("settings-error").textContent = "";
  const res = await page.request("PATCH", "", { title: $("title-input").value, version: page.view.version });
  if (res.ok) page.show(res.data);
  else if (res.status === 409) page.stale(res.data);
  else $("settings-error").textContent = res.data.error.message;
}

async function rename(ev) {
  ev.preventDefault();
  $("settings-error").textContent = "";
  const players = [...document.querySelectorAll("#names-inputs input")].map((i) => i.value);
  const res = await page.change({ change: "players", players });
  if (res.ok) await page.form.showNext();
  else if (res.status !== 409) $("settings-error").textContent = res.data.error.message;
}

async function removeSheet() {
  if (!confirm(t("Delete the whole sheet “{title}” and its history? This cannot be undone.", { title: page.view.title }))) return;
  const res = await page.request("DELETE", "");
  if (res.ok) location.href = "/sheets";
  else page.toast(res.data.error.message);
}

// ---------------------------------------------------------------- links and sharing

// A link carries its key in the fragment (never sent in a request). Exchange it once for an
// HttpOnly cookie the page's scripts cannot read, then drop it from the address bar and history.
async function openLink() {
  const key = new URLSearchParams(location.hash.slice(1)).get("key");
  if (!key) return;
  window.history.replaceState(null, "", location.pathname + location.search); // (`history` here is undo/redo)
  const res = await call("POST", `${API}/session`, undefined, key);
  if (!res.ok) {
    page.toast(res.data.error.message);
    return;
  }
  if (res.data.role === "owner") showOwnerLink(new URL(`/sheets/${encodeURIComponent(sheetId)}#key=${key}`, location.href).href);
}

function showOwnerLink(link) {
  const box = $("owner-link");
  const text = document.createElement("p");
  text.textContent = t("This is the sheet’s owner link: keep it somewhere safe. It opens the sheet with every right, from any browser (this browser remembers it).");
  const input = document.createElement("input");
  input.readOnly = true;
  input.value = link;
  input.setAttribute("aria-label", t("The owner link"));
  const copy = document.createElement("button");
  copy.type = "button";
  copy.className = "secondary";
  copy.textContent = t("Copy");
  copy.addEventListener("click", () => copyText(input));
  const done = document.createElement("button");
  done.type = "button";
  done.className = "secondary";
  done.textContent = t("I kept it");
  done.addEventListener("click", () => box.classList.add("hidden"));
  box.replaceChildren(text, input, copy, done);
  box.classList.remove("hidden");
}

async function copyText(input) {
  input.select();
  try {
    await navigator.clipboard.writeText(input.value);
    page.toast(t("Copied."));
  } catch (e) {
    page.toast(t("Copy the selected link by hand (the browser does not let the page copy it)."));
  }
}

async function share(role) {
  $("share-error").textContent = "";
  const res = await page.request("POST", "links", { role });
  if (!res.ok) {
    $("share-error").textContent = res.data.error.message;
    return;
  }
  const input = $("share-link");
  input.value = new URL(res.data.link, location.href).href;
  input.classList.remove("hidden");
  input.dataset.role = role;
  await copyText(input);
  await loadLinks();
}

async function loadLinks() {
  const res = await page.request("GET", "links");
  const list = $("share-links");
  if (!res.ok) {
    $("share-error").textContent = res.data.error.message;
    return;
  }
  const items = res.data.map((link) => {
    const li = document.createElement("li");
    const when = new Date(link.created * 1000).toLocaleString(document.documentElement.lang);
    const kind = { owner: t("Your owner link"), editor: t("Editor invitation"), viewer: t("View link") }[link.role] || link.role;
    li.textContent = t("{kind}, made {when}", { kind, when });
    li.dataset.link = link.id;
    if (link.role !== "owner") {
      const revoke = document.createElement("button");
      revoke.type = "button";
      revoke.className = "secondary";
      revoke.textContent = t("Revoke");
      revoke.setAttribute("aria-label", t("Revoke: {kind}, made {when}", { kind, when }));
      revoke.addEventListener("click", async () => {
        const gone = await page.request("DELETE", `links/${encodeURIComponent(link.id)}`);
        if (!gone.ok) $("share-error").textContent = gone.data.error.message;
        await loadLinks();
      });
      li.append(revoke);
    }
    return li;
  });
  list.replaceChildren(...items);
}

// A sheet may also be changed elsewhere (the terminal's `barbu score`, another page): look now and then.
async function watch() {
  if (document.visibilityState !== "visible" || page.pending || !page.view) return;
  const res = await call("GET", `${API}/version`);
  if (!res.ok || res.data.version === page.view.version || page.pending) return;
  const now = await page.request("GET", "");
  if (!now.ok) return;
  const before = page.form.state;
  page.show(now.data);
  const next = now.data.sheet.next;
  const keep = before && before.mode === "next" && next && next.number === before.deal && now.data.sheet.pending === null;
  if (!keep) await page.form.showNext();
  page.toast(t("The sheet was changed elsewhere: it shows as it is now."));
}

async function main() {
  setUpPage();
  for (const b of document.querySelectorAll("[data-call-word]")) b.textContent = words.calls[b.dataset.callWord] || b.dataset.callWord;
  page.form = new DealForm(page);
  $("undo").addEventListener("click", () => history("undo"));
  $("redo").addEventListener("click", () => history("redo"));
  $("stats-box").addEventListener("toggle", () => {
    if ($("stats-box").open) loadStats();
  });
  $("title-form").addEventListener("submit", retitle);
  $("names-form").addEventListener("submit", rename);
  $("remove").addEventListener("click", removeSheet);
  $("share-viewer").addEventListener("click", () => share("viewer"));
  $("share-editor").addEventListener("click", () => share("editor"));
  $("share-box").addEventListener("toggle", () => {
    if ($("share-box").open) loadLinks();
  });
  await openLink();
  const res = await page.request("GET", "");
  if (!res.ok) {
    $("entry-h").textContent = t("No such sheet");
    $("entry-form").classList.add("hidden");
    $("deals").replaceChildren(el("p", { class: "error-box" }, res.data.error.message), el("p", {}, el("a", { href: "/sheets" }, t("All sheets"))));
    return;
  }
  page.show(res.data);
  await page.form.showNext();
  setInterval(watch, 4000);
  document.body.dataset.ready = "1";
}

main();
