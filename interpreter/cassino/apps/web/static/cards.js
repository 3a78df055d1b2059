// Drawing cards and talking to the server: shared by the lobby and the table.
// No rule of any game is here: what a card may do is the server's answer.

/** A CSS class for a suit's colour as the variant names it (red, black, or a colour letter). */
export function colourClass(colour) {
  const c = String(colour || "").toLowerCase().replace(/[^a-z]/g, "");
  return `c-${c || "none"}`;
}

/** "9D" -> { rank: "9", suit: "D" }. With two packs the second copy of a card in one place has
 *  the id "9D~2": the mark tells the two apart for clicks and is never shown. */
export function splitCard(name) {
  const card = String(name).replace(/~[0-9]+$/, "");
  return { rank: card.slice(0, -1), suit: card.slice(-1) };
}

/** "9D" -> "9♦" (the suit's symbol from the variant's deck). */
export function cardWords(name, deck) {
  const { rank, suit } = splitCard(name);
  const s = (deck && deck.suits[suit]) || { symbol: suit };
  return `${rank}${s.symbol}`;
}

/** A card drawn as a card: rank in the corners, the suit's symbol in the middle, in the suit's colour. */
export function cardElement(name, deck, tag = "button") {
  const { rank, suit } = splitCard(name);
  const s = (deck && deck.suits[suit]) || { symbol: suit, name: suit, colour: "" };
  const el = document.createElement(tag);
  if (tag === "button") el.type = "button";
  el.className = `card ${colourClass(s.colour)}`;
  el.dataset.id = name;
  el.setAttribute("aria-label", `${rank} of ${s.name || suit}`);
  const corner = document.createElement("span");
  corner.className = "corner";
  corner.textContent = `${rank}${s.symbol}`;
  const pip = document.createElement("span");
  pip.className = "pip";
  pip.textContent = s.symbol;
  const low = document.createElement("span");
  low.className = "corner low";
  low.textContent = `${rank}${s.symbol}`;
  el.append(corner, pip, low);
  return el;
}

/** An element with text (never HTML: everything shown comes from data). */
export function el(tag, text = "", className = "") {
  const e = document.createElement(tag);
  if (text) e.textContent = text;
  if (className) e.className = className;
  return e;
}

/** POST JSON to the server; resolves to { ok, status, data }. */
export async function postJSON(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  let data = {};
  try { data = await response.json(); } catch (e) { data = { message: `the server answered ${response.status}` }; }
  return { ok: response.ok, status: response.status, data };
}

const STORE = "cassino.tables";

/** The tables this browser has opened or joined, with their links (kept in this browser only). */
export function savedTables() {
  try {
    const list = JSON.parse(localStorage.getItem(STORE) || "[]");
    return Array.isArray(list) ? list : [];
  } catch (e) {
    return [];
  }
}

export function saveTable(entry) {
  const list = savedTables().filter((t) => t.id !== entry.id);
  list.unshift(entry);
  localStorage.setItem(STORE, JSON.stringify(list.slice(0, 50)));
}

export function forgetTable(id) {
  localStorage.setItem(STORE, JSON.stringify(savedTables().filter((t) => t.id !== id)));
}
