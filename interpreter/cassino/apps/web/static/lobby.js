// The lobby: choose rules (checked by the server, errors shown at their line), seats, and open a table.

import { el, forgetTable, postJSON, saveTable, savedTables } from "./cards.js";

const $ = (id) => document.getElementById(id);
let info = null;            // the chosen rules' players range and partnerships, from the server
let checkedText = null;     // the pasted text that last checked clean

function source() {
  if (document.querySelector("input[name=from]:checked").value === "text") {
    const file = $("upload").files[0];
    return { kind: "text", text: $("yaml").value, filename: file ? file.name : "pasted.yaml" };
  }
  const [kind, ...rest] = $("variant").value.split(":");
  return { kind, name: rest.join(":") };
}

// ---------------------------------------------------------------- rules
async function loadChoices() {
  const response = await fetch("/api/choices");
  const choices = await response.json();
  const select = $("variant");
  const groups = [["bundled", "Bundled variants"], ["example", "House-rule examples"],
    ["folder", `Rule files in ${choices.folder_path || "the rules folder"}`]];
  for (const [kind, label] of groups) {
    if (!choices[kind] || !choices[kind].length) continue;
    const group = document.createElement("optgroup");
    group.label = label;
    for (const c of choices[kind]) {
      const option = el("option", c.name);
      option.value = `${kind}:${c.name}`;
      option.dataset.description = c.description;
      group.append(option);
    }
    select.append(group);
  }
  select.value = "bundled:standard";
  showLimits(choices.limits);
  // The choices may arrive after the player chose to paste or upload their own rules: check the
  // named variant only while it is still the choice (an empty text box is no error to show).
  if (source().kind !== "text") await chooseNamed();
}

// What this server allows, said before anyone asks for more.
function showLimits(limits) {
  if (!limits) return;
  $("limits").textContent = `On this server a computer player searches at most ${limits.bot_deals.toLocaleString("en")} ` +
    `deals or ${limits.bot_seconds} seconds a move; at most ${limits.tables_per_client} tables in play ` +
    `from one computer and ${limits.max_tables} in all (a finished game counts until its table closes); ` +
    `at most ${limits.uploads_per_minute} tables opened, files checked or records uploaded a minute from one computer.`;
}

async function chooseNamed() {
  const option = $("variant").selectedOptions[0];
  $("variant-description").textContent = option ? option.dataset.description : "";
  const [kind, ...rest] = $("variant").value.split(":");
  $("variant-rules").href = `/rules/${encodeURIComponent(kind)}/${encodeURIComponent(rest.join(":"))}`;
  await checkRules();
}

function renderGutter(bad = new Set(), warned = new Set()) {
  const lines = $("yaml").value.split("\n").length;
  const gutter = $("gutter");
  gutter.replaceChildren();
  for (let k = 1; k <= Math.max(lines, 1); k += 1) {
    const n = el("span", String(k), bad.has(k) ? "bad" : warned.has(k) ? "warned" : "");
    gutter.append(n, document.createTextNode("\n"));
  }
}

// Problems of the rules as the server found them: errors (the rules cannot be played) or warnings (they can,
// but maybe not as meant), each with its place, the line quoted with a caret, and the hint.
function problemList(problems, kind, marked) {
  const list = el("ul", "", "errors");
  for (const e of problems) {
    const li = el("li", "", kind === "warning" ? "rule-warning" : "rule-error");
    const where = e.line ? `${e.file}, line ${e.line}, column ${e.column}` : e.file;
    li.dataset.line = e.line || 0;
    li.append(el("strong", `${where}: `), el("span", e.message));
    if (e.source_line !== null && e.source_line !== undefined && e.line) {
      const caret = `${" ".repeat(Math.max(e.column - 1, 0))}^`;
      li.append(el("pre", `${String(e.line).padStart(4)} | ${e.source_line.replace(/\n$/, "")}\n     | ${caret}`, "source"));
    }
    if (e.hint) li.append(el("p", `hint: ${e.hint}`, "hint"));
    if (e.line && !e.file.includes("(")) marked.add(e.line);   // a parent variant is written "standard (PATH)"
    list.append(li);
  }
  return list;
}

function showRuleErrors(errors, warnings = [], valid = "") {
  const box = $("rule-errors");
  box.replaceChildren();
  const bad = new Set();
  const warned = new Set();
  if (valid) box.append(el("p", valid, "ok"));
  if (errors.length) box.append(el("p", `${errors.length} error${errors.length > 1 ? "s" : ""}:`, "error"),
                                problemList(errors, "error", bad));
  if (warnings.length) box.append(el("p", `${warnings.length} warning${warnings.length > 1 ? "s" : ""}:`, "warning"),
                                  problemList(warnings, "warning", warned));
  renderGutter(bad, warned);
}

let checking = 0;            // the last check asked for: an answer to an older one is not shown

async function checkRules() {
  const spec = source();
  const asked = ++checking;
  // A named variant must load before seats can be offered; a pasted file is checked again on opening.
  $("start").disabled = spec.kind !== "text";
  const { ok, data } = await postJSON("/api/rules", { rules: spec });
  if (asked !== checking) return ok;   // the rules changed while this check was on its way
  if (!ok) {
    info = null;
    if (data.errors) showRuleErrors(data.errors);
    else showRuleErrors([{ file: spec.filename || spec.name, line: 0, column: 0, message: data.message }]);
    $("players-note").textContent = "";
    return false;
  }
  info = data.info;
  if (spec.kind === "text") {
    checkedText = spec.text;
    showRuleErrors([], data.warnings || [], `The rules are valid: ${info.name}, ${info.description}`);
  } else {
    showRuleErrors([], data.warnings || []);
  }
  const players = $("players");
  players.min = info.min_players;
  players.max = info.max_players;
  const now = Number(players.value);
  if (!(now >= info.min_players && now <= info.max_players)) players.value = info.min_players;
  $("players-note").textContent = `${info.name} is for ${info.players_text}.`;
  renderSeats();
  $("start").disabled = false;
  return true;
}

// ---------------------------------------------------------------- seats
const KINDS = [
  ["you", "You"],
  ["human", "A person (gets a link)"],
  ["random", "Computer: random"],
  ["greedy", "Computer: greedy"],
  ["search", "Computer: search"],
];

function seatRow(k, kind) {
  const row = el("div", "", "seat-row");
  row.dataset.seat = k;
  const label = el("label", `Seat ${k} `);
  const select = document.createElement("select");
  select.className = "kind";
  select.setAttribute("aria-label", `seat ${k}`);
  for (const [value, text] of KINDS) {
    const option = el("option", text);
    option.value = value;
    select.append(option);
  }
  select.value = kind;
  label.append(select);
  const budget = el("span", "", "budget");
  const amount = document.createElement("input");
  amount.type = "number";
  amount.min = "1";
  amount.value = "64";
  amount.className = "amount";
  amount.setAttribute("aria-label", `seat ${k} search budget`);
  const unit = document.createElement("select");
  unit.className = "unit";
  unit.setAttribute("aria-label", `seat ${k} budget unit`);
  for (const [value, text] of [["deals", "deals a move"], ["s", "seconds a move"]]) {
    const option = el("option", text);
    option.value = value;
    unit.append(option);
  }
  budget.append(amount, unit);
  const sync = () => { budget.hidden = select.value !== "search"; };
  select.addEventListener("change", () => {
    if (select.value === "you") {
      for (const other of document.querySelectorAll("#seats select.kind")) {
        if (other !== select && other.value === "you") other.value = "human";
      }
    }
    sync();
  });
  sync();
  row.append(label, budget);
  return row;
}

function renderSeats() {
  const n = Number($("players").value);
  const box = $("seats");
  const old = [...box.querySelectorAll("select.kind")].map((s) => s.value);
  box.replaceChildren();
  for (let k = 0; k < n; k += 1) box.append(seatRow(k, old[k] || (k === 0 ? "you" : "search")));
  const partners = $("partners");
  const teams = (info && info.partnership_players) || [4];
  const allowed = info && teams.includes(n) && info.partnerships !== "never";
  partners.disabled = !allowed;
  if (info && teams.includes(n) && info.partnerships === "always") partners.checked = true;
  if (!allowed) partners.checked = false;
}

function seatKinds() {
  const kinds = [];
  let you = null;
  for (const row of document.querySelectorAll("#seats .seat-row")) {
    const kind = row.querySelector("select.kind").value;
    if (kind === "you") { you = kinds.length; kinds.push("human"); continue; }
    if (kind === "search") {
      const amount = row.querySelector(".amount").value.trim();
      const unit = row.querySelector(".unit").value;
      kinds.push(unit === "s" ? `search:${amount}s` : `search:${amount}`);
      continue;
    }
    kinds.push(kind);
  }
  return { kinds, you };
}

// ---------------------------------------------------------------- opening a table
// Your seat's link, with `?tutorial` (before the `#token`) when the table page is to start with the tutorial on.
function seatLink(t) {
  const link = t.links.seats[String(t.you)];
  return t.tutorial ? link.replace("#", "?tutorial#") : link;
}

function showLinks(data, label, tutorial = false) {
  const entry = { id: data.id, variant: data.info.variant, links: data.links, you: data.you, created: Date.now(),
    tutorial: tutorial && data.you !== null };
  saveTable(entry);
  const others = Object.entries(data.links.seats).filter(([seat]) => Number(seat) !== data.you);
  if (!others.length && data.you !== null) {
    location.href = seatLink(entry);
    return;
  }
  const box = $("created");
  box.hidden = false;
  box.replaceChildren(el("h3", `${label}: ${data.info.variant}`));
  if (others.length) box.append(el("p", "Send each friend the link of their seat:"));
  const list = el("ul", "", "links");
  for (const [seat, link] of others) {
    const li = el("li");
    const input = el("input");
    input.readOnly = true;
    input.value = `${location.origin}${link}`;
    input.dataset.seat = seat;
    input.addEventListener("focus", () => input.select());
    li.append(el("span", `Seat ${seat}: `), input);
    list.append(li);
  }
  if (data.you !== null) {   // (with a seat of your own, the watch link was shown nowhere: a player's audit)
    const li = el("li");
    const input = el("input");
    input.readOnly = true;
    input.value = `${location.origin}${data.links.watch}`;
    input.dataset.watch = "";
    input.addEventListener("focus", () => input.select());
    li.append(el("span", "To watch (it shows no one's hand): "), input);
    list.append(li);
  }
  box.append(list);
  const go = el("a", data.you !== null ? `Take your seat (seat ${data.you})` : "Watch the table", "button go");
  go.href = data.you !== null ? seatLink(entry) : data.links.watch;
  go.id = "take-seat";
  box.append(go);
  renderMine();
}

async function openTable(event) {
  event.preventDefault();
  const errors = $("start-errors");
  errors.replaceChildren();
  const spec = source();
  if (spec.kind === "text" && spec.text !== checkedText && !(await checkRules())) {
    errors.append(el("p", "The rules have errors: see above.", "error"));
    return;
  }
  const { kinds, you } = seatKinds();
  const body = { rules: spec, players: Number($("players").value), partners: $("partners").checked, seats: kinds, you };
  const { ok, data } = await postJSON("/api/tables", body);
  if (!ok) {
    if (data.errors) showRuleErrors(data.errors);
    errors.append(el("p", data.message || "the table could not be opened", "error"));
    return;
  }
  showLinks(data, "Table open", $("tutorial-first").checked);
}

async function continueRecord() {
  const file = $("record-file").files[0];
  const box = $("record-errors");
  box.replaceChildren();
  if (!file) return;
  const text = await file.text();
  const { ok, data } = await postJSON("/api/records", { text, filename: file.name });
  if (!ok) {
    box.append(el("p", data.message || "the record could not be read", "error"));
    return;
  }
  showLinks(data, "Game continued");
}

// ---------------------------------------------------------------- your tables
async function renderMine() {
  const list = $("my-tables");
  const tables = savedTables();
  $("yours").hidden = tables.length === 0;
  list.replaceChildren();
  for (const t of tables) {
    const li = el("li", "", "my-table");
    const link = el("a", `${t.variant}`);
    link.href = t.you !== null && t.links.seats[String(t.you)] ? seatLink(t) : t.links.watch;
    const line = el("span", " …", "small");
    const forget = el("button", "forget", "small-button");
    forget.type = "button";
    forget.addEventListener("click", () => { forgetTable(t.id); renderMine(); });
    li.append(link, line, forget);
    list.append(li);
    fetch(`/api/tables/${encodeURIComponent(t.id)}`).then((r) => (r.ok ? r.json() : null)).then((d) => {
      line.textContent = d ? ` ${d.outcome}` : " (not on this server)";
    }).catch(() => { line.textContent = ""; });
  }
}

// ---------------------------------------------------------------- wiring
function wire() {
  $("variant").addEventListener("change", chooseNamed);
  for (const radio of document.querySelectorAll("input[name=from]")) {
    radio.addEventListener("change", () => {
      const text = radio.value === "text" && radio.checked;
      $("own").hidden = !text;
      $("named").hidden = text;
      if (!text) chooseNamed(); else { renderGutter(); $("start").disabled = false; }
    });
  }
  $("yaml").addEventListener("input", () => { checkedText = null; renderGutter(); });
  $("yaml").addEventListener("scroll", () => { $("gutter").scrollTop = $("yaml").scrollTop; });
  $("upload").addEventListener("change", async () => {
    const file = $("upload").files[0];
    if (!file) return;
    $("yaml").value = await file.text();
    renderGutter();
    await checkRules();
  });
  $("check").addEventListener("click", checkRules);
  $("players").addEventListener("change", renderSeats);
  $("new-table").addEventListener("submit", openTable);
  $("record-file").addEventListener("change", continueRecord);
  renderMine();
  loadChoices();
}

wire();
