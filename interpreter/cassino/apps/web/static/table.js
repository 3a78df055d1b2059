// The card table: draws what the server says this seat may see, and sends moves.
//
// The server's engine decides every rule. Each state it sends lists this seat's
// legal moves with the cards and builds each one uses; a click only narrows
// that list (the moves that use every card and build clicked so far), lights up
// what can still be added, and offers the moves the clicks name exactly, in words.
// Where the list is not whole (a table of very many moves), any card may be
// clicked, and the server says after each click whether the cards chosen make a
// legal move (then offered to play) or why not.
//
// The table's fixed parts (the variant's words, the deck) come once, in the
// welcome; each state is the position only, and a presence line says who is
// connected when a seat comes or goes.
//
// The learning aids are the server's too: the counting aid arrives with each state
// once switched on, the warnings answer a move before it is sent, and the review of
// a finished game is made by the server and only drawn here. The tutorial's lessons
// (the rulebook's sentences, sent the first time each rule applies) are shown in a
// panel until the person dismisses it; the lobby's "first game" opens the page with
// `?tutorial` to switch it on.

import { cardElement, cardWords, el, savedTables } from "./cards.js";

const tableId = location.pathname.split("/").filter(Boolean).pop();
const token = decodeURIComponent(location.hash.slice(1));
const $ = (id) => document.getElementById(id);

let ws = null;
let state = null;
let deck = null;
let selected = { played: [], items: [] };
let retries = 0;
let fatal = false;
let lastHandShown = 0;
let lastPlayed = null;       // the move last sent, with its position: a second click on it there is not sent again
let warnedMove = null;      // the move asked about, waiting for "Play it anyway" or "Take it back"
let review = null;          // the review of this seat's moves, once asked for at the end
let step = 0;               // the replay's action shown
let autoEnded = false;      // `end` was played for this seat (its only move): said once the turn has passed
let statics = {};           // the welcome's fixed parts: variant, deck, typing, rules, free_actions
let found = null;           // the legal moves the clicked cards make, found by the server (not in the list)
let hinted = null;          // the hint's move at this position (marked among the choices), until the game moves on
let whyAsked = null;        // cards clicked that no listed move uses, asked about (not selected), and the selection then

// ---------------------------------------------------------------- connection
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(tableId)}`);
  ws.addEventListener("open", () => {
    retries = 0;
    send({ type: "hello", token });
  });
  ws.addEventListener("message", (event) => {
    let msg;
    try { msg = JSON.parse(event.data); } catch (e) { return; }
    receive(msg);
  });
  ws.addEventListener("close", () => {
    if (fatal) return;
    status("Connection lost: reconnecting…", "warn");
    retries += 1;
    setTimeout(connect, Math.min(8000, 400 * 2 ** Math.min(retries, 5)));
  });
}

// What was asked while the connection was down is not sent: the page says so rather than nothing (a player's audit
// clicked a move while it was down, and after the reconnect the same move was taken for a double click and never sent).
const NOT_SENT = "Not connected to the table (reconnecting…): nothing was sent. Try again once it is back.";

function connected() {
  return ws !== null && ws.readyState === WebSocket.OPEN;
}

function send(message) {
  if (connected()) {
    ws.send(JSON.stringify(message));
    return true;
  }
  if (message.type !== "hello" && message.type !== "ping") say(NOT_SENT, "error");
  return false;
}

function status(text, kind = "") {
  const s = $("status");
  s.textContent = text;
  s.className = kind;
}

function say(text, kind = "") {
  const m = $("message");
  m.textContent = text;
  m.className = kind;
}

function receive(msg) {
  switch (msg.type) {
    case "welcome":
      statics = { variant: msg.variant, deck: msg.deck, typing: msg.typing, rules: msg.rules, free_actions: msg.free_actions,
        turns: msg.turns };
      lastPlayed = null;      // (connected again: a move sent before may not have arrived, and may be sent again)
      if ($("message").textContent === NOT_SENT) say("");
      document.body.dataset.seat = msg.seat === null ? "watch" : String(msg.seat);
      if (msg.seat !== null && $("count-toggle").checked) send({ type: "count", on: true });   // after a reconnect
      if (msg.seat !== null && $("tutorial-toggle").checked) send({ type: "tutorial", on: true });
      break;
    case "warnings":
      onWarnings(msg);
      break;
    case "review":
      onReview(msg.review);
      break;
    case "lessons":
      onLessons(msg);
      break;
    case "lessons_read":   // read in another tab of this seat
      closeLessons(false);
      break;
    case "state":
      onState({ ...statics, ...msg });
      break;
    case "presence":
      onPresence(msg.connected);
      break;
    case "found":
      onFound(msg);
      break;
    case "hand_end":
      onHandEnd(msg);
      break;
    case "hint":
      onHint(msg);
      break;
    case "refused":
      if (msg.asked && !answersNow(msg.asked)) break;     // about cards clicked on since: stale
      lastPlayed = null;                                   // (the same move may be sent again once refused)
      say(msg.message, "refused");
      break;
    case "info":
      say(msg.message, "info");
      break;
    case "error":
      if (msg.fatal) {
        fatal = true;
        status(msg.message, "error");
        $("title").textContent = "No seat";
      } else {
        lastPlayed = null;
        say(msg.message, "error");
        if ($("review-button")) $("review-button").disabled = false;    // a review refused (busy): ask again
      }
      break;
    default:
      break;
  }
}

// ---------------------------------------------------------------- state
function onState(s) {
  const newPosition = !state || state.ply !== s.ply || state.hand_no !== s.hand_no;
  const turnBegins = !state || state.turn !== s.turn;
  state = s;
  deck = s.deck;
  if (newPosition) {
    selected = { played: [], items: [] };
    found = null;
    hinted = null;
    closeWarnings();
    if (autoEnded) {
      autoEnded = false;
      say("Nothing left for your hand to build: your turn ended.", "info");
    } else if (!s.moves.length || turnBegins || $("message").className === "error") say("");   // (a refusal of the
    // last position's click, "it is not your turn" after a double click among them, said no more once the game has
    // moved on; "your turn ended" no more once the next turn begins, which an audit saw under "Your turn")
  }
  render();
  // A turn of several actions whose card from the hand is played and whose hand can build nothing more: `end`
  // is the only move, so it is played without a question (as the terminal does), once for the position.
  if (newPosition && myTurn() && !partialList() && s.moves.length === 1 && s.moves[0].kind === "end") {
    autoEnded = true;
    send({ type: "move", text: s.moves[0].text });
  }
}

function onPresence(connected) {
  if (!state) return;
  for (const p of state.seats) if (p.kind === "human") p.connected = connected.includes(p.seat);
  render();
}

// Whether the server's answer is about the cards selected now (not those of a click since).
function sameSelection(asked) {
  return sameCards(asked, selected);
}

function sameCards(a, b) {
  const same = (x, y) => x.length === y.length && x.every((c) => y.includes(c));
  return same(a.played, b.played) && same(a.items, b.items);
}

// Cards clicked that no listed move uses are not selected: the server is asked why (a browser audit clicked a dimmed
// card and was told nothing, the answer dropped as being about other cards than those selected).
function askWhy(played, items) {
  whyAsked = { asked: { played, items }, at: { played: [...selected.played], items: [...selected.items] } };
  send({ type: "why", played, items });
}

// Whether the server's answer is about the cards selected now, or about the cards last asked about with no click since.
function answersNow(asked) {
  return sameSelection(asked) || (whyAsked !== null && sameCards(asked, whyAsked.asked) && sameSelection(whyAsked.at));
}

// The server's answer to cards clicked beyond the moves listed: the legal moves they make, offered to play.
function onFound(msg) {
  if (!sameSelection(msg.asked || { played: msg.move.played, items: msg.move.items })) return;   // clicked on since
  found = msg.moves || [msg.move];
  say(capital(msg.message), "info");
  render();
}

// The list of moves is not every legal move: clicks are free, and the server checks them.
function partialList() {
  return state && (state.too_many || state.more_moves > 0);
}

// Table cards may be clicked with no card from the hand: a turn may hold builds of cards in play alone, and
// the list is cut short (some of those builds are not in it: the server finds them).
function freeClicks() {
  return partialList() && state.free_actions && !selected.played.length;
}

function renderExamples(s) {
  const list = $("examples");
  if (list.dataset.table === s.table) return;   // the same table: fetched once
  list.dataset.table = s.table;
  fetch(`/examples/${encodeURIComponent(s.table)}`)
    .then((r) => (r.ok ? r.json() : { examples: [] }))
    .then(({ examples }) => {
      list.replaceChildren(...examples.map((e) => {
        const item = el("li", "");
        item.append(el("code", e.text), ` ${e.means}`);
        return item;
      }));
      if (examples.length) $("notation").placeholder = `e.g. ${examples[examples.length - 1].text}`;
    })
    .catch(() => {});
}

function render() {
  const s = state;
  document.title = `${s.variant.name}: cassino table`;
  $("title").textContent = s.variant.name;
  $("rules-link").href = s.rules;
  $("typing").textContent = `Cards are typed ${s.typing}.`;
  $("turns").hidden = !s.turns;     // (a turn of several actions: its words, what is in backticks as code)
  $("turns").replaceChildren(...String(s.turns || "").split("`").map((part, k) => (k % 2 ? el("code", part) : part)));
  renderExamples(s);
  renderInfo(s);
  renderSeats(s);
  renderTable(s);
  renderHand(s);
  renderActions(s);
  renderLog(s);
  renderInvite();
  renderOver(s);
  renderAids(s);
  const mover = s.seats.find((x) => x.seat === s.turn);
  if (s.failed) status(s.failed, "error");
  else if (s.working) status(capital(s.working), "wait");
  // (the outcome begins "over after 1 hand: ...": a browser audit read "Game over: over after 1 hand")
  else if (s.over) status(`Game over${s.outcome.replace(/^over/, "")}`, "over");
  else if (s.you !== null && s.turn === s.you && s.moves.some((m) => m.kind === "end")) {
    // (a turn of several actions after its card: no card of the hand is left to play in it)
    status("Your turn goes on: click table cards to build with them, or end the turn.", "turn");
  } else if (s.you !== null && s.turn === s.you && s.turn_so_far) {
    // (a build of cards in play made before the card from the hand: an audit read "Your turn" as if nothing was made)
    status(`Your turn goes on after ${s.turn_so_far}: play a card from your hand, or build more with cards in play.`, "turn");
  } else if (s.you !== null && s.turn === s.you) status("Your turn: click a card in your hand, or type a move.", "turn");
  else if (mover) status(`${mover.name} to play…`, "wait");
  document.body.classList.toggle("my-turn", s.you !== null && s.turn === s.you && !s.over);
  document.body.dataset.position = `${s.hand_no}:${s.ply}`;
  jumpToLessons();
}

function renderInfo(s) {
  const info = $("info");
  info.replaceChildren();
  const facts = [
    ["Hand", `${s.hand_no}, deal ${s.deal_no}`],
    ["Dealer", `seat ${s.dealer}`],
    ["Stock", `${s.stock} card${s.stock === 1 ? "" : "s"}`],
    // (where the lowest total wins the target is a limit of penalty points, as the rulebook says: an audit)
    [s.lowest ? "Limit" : "Target", s.target === null ? "one hand" : String(s.target)],
  ];
  for (const [k, v] of facts) info.append(el("dt", k), el("dd", v));
  const scores = $("scores");
  scores.replaceChildren();
  for (const side of s.sides) {
    const box = el("div", "", "score");
    if (s.you !== null && side.seats.includes(s.you)) box.classList.add("ours");
    box.append(el("span", side.name, "who"), el("strong", String(side.score)));
    scores.append(box);
  }
}

function renderSeats(s) {
  const seats = $("seats");
  seats.replaceChildren();
  for (const p of s.seats) {
    const box = el("div", "", "seat");
    box.dataset.seat = p.seat;
    if (p.seat === s.turn && !s.over) box.classList.add("to-play");
    if (p.seat === s.you) box.classList.add("you");
    if (!p.connected) box.classList.add("away");
    const head = el("div", "", "seat-head");
    head.append(el("strong", p.name));
    // (with partners, which seat plays with you: the scores' "seats 0+2" alone said it, a player's audit)
    const mine = s.you !== null ? s.seats[s.you] : null;
    if (mine && p.seat !== s.you && p.side === mine.side) head.append(el("span", "your partner", "tag partner"));
    if (p.seat === s.dealer) head.append(el("span", "dealer", "tag"));
    if (p.seat === s.turn && !s.over) head.append(el("span", "to play", "tag turn"));
    if (!p.connected) head.append(el("span", "not here", "tag"));
    const backs = el("div", "", "backs");
    for (let k = 0; k < p.held; k += 1) backs.append(el("span", "", "back"));
    const nums = el("div", `${p.held} in hand · ${p.taken} taken${p.sweeps ? ` · ${p.sweeps} sweep${p.sweeps > 1 ? "s" : ""}` : ""}`, "nums");
    // (what the last turn swept and scored, as the terminal says it with the move)
    const last = el("div", p.last ? `last: ${p.last}${p.last_said ? `: ${p.last_said}` : ""}` : "", "last");
    box.append(head, backs, nums, last);
    if (p.top) box.append(pileTop(s, p));
    seats.append(box);
  }
}

// African Casino: a side's capture pile lies face up (shown at the seat that took its top card, so with
// partners it moves between them); its top card is in play for the other sides,
// chosen like a loose table card (a move names it by its card name). Where a move may reach under the
// top (capture.pile_cards: augment), the cards it may reach follow, top first (`p.pile`): each is
// chosen once the card above it is, as a pile is taken from the top down.
function pileTop(s, p) {
  const wrap = el("div", "", "pile-top");
  // With partners the pile is the side's, shown at the seat that took its top card.
  const side = s.sides.find((d) => d.side === p.side);
  wrap.append(el("span", side && side.seats.length > 1 ? `pile top of ${side.name}` : "pile top", "tag"));
  const pile = p.pile && p.pile.length ? p.pile : [p.top];
  const active = myTurn() && (selected.played.length > 0 || freeMoves().length > 0 || freeClicks());
  const open = new Set();
  if (active) for (const m of openMoves()) for (const i of m.items) open.add(i);
  pile.forEach((id, k) => {
    if (k === 1) wrap.append(el("span", "under it", "tag under"));
    const c = cardElement(id, deck);
    const above = k > 0 ? pile[k - 1] : null;
    if (above === null) c.dataset.top = id;
    else {
      c.dataset.under = id;
      c.dataset.depth = String(k);
      c.setAttribute("aria-label", `${cardWords(id, deck)}, under ${cardWords(above, deck)}`);
    }
    const uncovered = above === null || selected.items.includes(above);
    if (active) {
      if (selected.items.includes(id)) c.classList.add("selected");
      else if (uncovered && open.has(id)) c.classList.add("playable");
      else if (!(uncovered && freeClicks())) c.classList.add("dim");
    }
    c.addEventListener("click", () => {
      if (!uncovered && !selected.items.includes(id) && myTurn() && (selected.played.length || freeClicks())) {
        say(`${capital(cardWords(id, deck))} lies under ${cardWords(above, deck)}: choose ${cardWords(above, deck)} first (a pile is taken from the top down).`);
        return;
      }
      clickItem(id);
    });
    wrap.append(c);
  });
  return wrap;
}

function myTurn() {
  return state && !state.over && state.you !== null && state.turn === state.you && state.moves.length > 0;
}

function candidates() {
  return state.moves.filter((m) => selected.played.every((c) => m.played.includes(c))
    && selected.items.every((i) => m.items.includes(i)));
}

// A turn of several actions (build.free_actions): builds of cards in play that play no card from the hand.
function freeMoves() {
  return state ? state.moves.filter((m) => !m.played.length && m.kind === "build") : [];
}

// The moves the clicks so far may still become: with no hand card chosen, builds of cards in play alone.
function openMoves() {
  return selected.played.length ? candidates()
    : freeMoves().filter((m) => selected.items.every((i) => m.items.includes(i)));
}

function exactMoves() {
  return candidates().filter((m) => m.played.length === selected.played.length
    && m.items.length === selected.items.length);
}

// What to click next where the cards chosen make no move yet: more on the table, or (where several cards of the hand
// are played together, as in Hungarian Casino) another card of the hand: a player's audit chose 7♥ 6♣ 10♣ for
// 7♥+9♠ and was told to click on the table, where nothing was lit.
function nextClick() {
  const open = candidates();
  const items = open.some((m) => m.items.length > selected.items.length);
  const cards = open.some((m) => m.played.length > selected.played.length);
  if (cards && !items) return "Now click another card of your hand to play with it (lit up).";
  if (cards) return "Now click what to take or build on, or another card of your hand to play with it (lit up).";
  return "Now click what to take or build on (lit up).";
}

function renderTable(s) {
  const loose = $("loose");
  const builds = $("builds");
  loose.replaceChildren();
  builds.replaceChildren();
  const active = myTurn() && (selected.played.length > 0 || freeMoves().length > 0 || freeClicks());
  const open = new Set();
  if (active) for (const m of openMoves()) for (const i of m.items) open.add(i);
  const mark = (node, id) => {
    if (!active) return;
    if (selected.items.includes(id)) node.classList.add("selected");
    else if (open.has(id)) node.classList.add("playable");
    else if (!freeClicks()) node.classList.add("dim");   // (any card may make a build the list left out)
  };
  for (const name of s.loose) {
    const c = cardElement(name, deck);
    mark(c, name);
    c.addEventListener("click", () => clickItem(name));
    loose.append(c);
  }
  for (const b of s.builds) {
    const box = document.createElement("button");
    box.type = "button";
    box.className = "build";
    box.dataset.id = b.id;
    const cards = el("div", "", "build-cards");
    for (const name of b.cards) cards.append(cardElement(name, deck, "span"));
    const name = (seat) => (s.seats[seat] ? s.seats[seat].name : `seat ${seat}`);
    // (built for a partner, or added to by one: whose it is to take, as one build a player counts it; an audit read
    // "seat 0 (you), for seat 2" as the builder's own)
    const whose = b.holder !== b.owner ? `for ${name(b.holder)} to take, ${name(b.owner)} added last` : name(b.owner);
    const label = el("div", `build of ${b.value} · ${b.multiple ? "multiple" : "single"} · ${whose}`, "build-label");
    box.setAttribute("aria-label", `${label.textContent}: ${b.cards.map((c) => cardWords(c, deck)).join(" ")}`);
    box.append(cards, label);
    mark(box, b.id);
    box.addEventListener("click", () => clickItem(b.id));
    builds.append(box);
  }
  $("empty-table").hidden = s.loose.length + s.builds.length > 0;
  // What the deal in play did as it was dealt, beside the cards it laid (the log keeps it too): four cards that
  // appeared on the table at six players' last deal were explained nowhere (a player's audit of the terminal).
  const dealt = s.log.filter((entry) => entry.seat === null && entry.deal === s.deal_no);
  $("dealt").replaceChildren(...dealt.map((entry) => el("p", capital(entry.text))));
  $("dealt").hidden = dealt.length === 0;
}

function renderHand(s) {
  const hand = $("hand");
  hand.replaceChildren();
  $("mine").hidden = s.you === null;
  $("hand-title").textContent = s.you === null ? "" : `Your hand (seat ${s.you})`;
  const playable = new Set();
  if (myTurn()) {
    const pool = selected.played.length ? candidates() : state.moves;
    for (const m of pool) for (const c of m.played) playable.add(c);
    for (const m of state.moves) if (m.played.length === 1) playable.add(m.played[0]);
  }
  for (const name of s.hand) {
    const c = cardElement(name, deck);
    if (selected.played.includes(name)) c.classList.add("selected");
    else if (playable.has(name) || playable.has(firstCopy(name))) c.classList.add("playable");
    else if (myTurn()) c.classList.add("dim");
    c.addEventListener("click", () => clickHand(name));
    hand.append(c);
  }
}

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function moveButton(m) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = `choice move-${m.kind}`;   // not `build`: that is the felt's build style
  b.dataset.move = m.text;
  b.dataset.kind = m.kind;
  b.append(el("span", capital(m.words), "words"), el("code", m.text));
  if (m.text === hinted) {   // (a browser audit saw the hinted build listed second, under a capture, unmarked)
    b.classList.add("hinted");
    b.querySelector(".words").append(el("span", " (the hint)", "hint-mark"));
  }
  b.addEventListener("click", () => play(m.text));
  return b;
}

function renderActions(s) {
  const choices = $("choices");
  choices.replaceChildren();
  const mine = myTurn();
  $("act").hidden = s.you === null || s.over;
  // (the Play button stays enabled where the seat is not to play: Enter did nothing and said nothing, an audit)
  $("hint").disabled = !mine;
  $("undo").disabled = !s.can.undo;
  $("undo").hidden = !s.can.undo && s.seats.filter((p) => p.kind === "human").length > 1;
  $("claim").hidden = !s.can.claim;   // (at any time, not only at your turn: before the next player plays)
  if (!s.can.claim) $("claim-confirm").hidden = true;
  const end = mine ? s.moves.find((m) => m.kind === "end") : undefined;
  if (end) {
    choices.append(el("p", "Your card from the hand is played: build with cards in play, or end the turn.", "prompt"),
      moveButton(end));
  }
  if (mine && (selected.played.length || selected.items.length)) {
    const exact = exactMoves();
    const extra = found ? found.filter((m) => !exact.some((e) => e.text === m.text)) : [];
    if (extra.length) {   // (the server's moves of these cards, with any the list has)
      const all = [...exact, ...extra];
      choices.append(el("p", all.length > 1 ? "These cards make more than one move: choose one." : "Play it:",
        "prompt"), ...all.map(moveButton));
    } else if (exact.length > 1) choices.append(el("p", "These cards make more than one move: choose one.", "prompt"));
    else if (exact.length === 1) choices.append(el("p", "Play it:", "prompt"));
    else if (partialList()) choices.append(el("p", "Click what to take; the server checks each choice.", "prompt"));
    else choices.append(el("p", nextClick(), "prompt"));
    if (!extra.length) for (const m of exact) choices.append(moveButton(m));
  }
  const list = $("all-moves").querySelector("ul");
  list.replaceChildren();
  for (const m of mine ? s.moves : []) {
    const li = el("li");
    li.append(moveButton(m));
    list.append(li);
  }
  $("all-moves").hidden = !mine;
  if (mine && s.too_many) {
    choices.append(el("p", `This position has more legal moves than the server lists: ${s.moves.length} are offered here. Click cards to make another (the server checks it), or type it in notation.`, "prompt more"));
  } else if (mine && s.more_moves > 0) {
    choices.append(el("p", `${s.more_moves} more legal moves than are offered here: click cards to make one (the server checks it), or type it in notation.`, "prompt more"));
  }
}

function renderLog(s) {
  const log = $("log");
  log.replaceChildren(...s.log.map((entry) => logItem(entry, (seat) => (s.seats[seat] ? s.seats[seat].name : `seat ${seat}`))));
}

// One line of a hand's history: a turn, with what it swept and scored, or a claim with whether it was right (`said`:
// the terminal's words, as the server says them), or what a deal did as it was dealt that the table does not show
// (`seat` null: cards laid on the table because they were too few to go round, the dealer's take at Escoba), where
// the deal began.
function logItem(entry, name) {
  const li = el("li");
  if (entry.seat === null) {
    li.className = "dealt";
    li.append(el("span", `deal ${entry.deal}: `, "who"), el("span", entry.text, "said"));
    return li;
  }
  li.append(el("span", `${name(entry.seat)}: `, "who"), el("code", entry.text));
  if (entry.said) li.append(el("span", `: ${entry.said}`, "said"));
  return li;
}

function renderInvite() {
  const mine = savedTables().find((t) => t.id === tableId);
  const box = $("invite");
  const list = box.querySelector("ul");
  list.replaceChildren();
  if (!mine || !mine.links) { box.hidden = true; return; }
  const others = Object.entries(mine.links.seats).filter(([seat]) => Number(seat) !== mine.you);
  // (the watch link too: watching was only reachable from a table opened with no seat of one's own, a player's audit)
  const watch = mine.you !== null && mine.links.watch ? mine.links.watch : null;
  box.hidden = (others.length === 0 && !watch) || (state && state.over);
  $("invite-seats").hidden = others.length === 0;
  const line = (label, link, aria) => {
    const li = el("li");
    const input = el("input");
    input.readOnly = true;
    input.value = `${location.origin}${link}`;
    input.setAttribute("aria-label", aria);
    input.addEventListener("focus", () => input.select());
    li.append(el("span", label), input);
    return li;
  };
  for (const [seat, link] of others) {
    const here = state && state.seats[Number(seat)] && state.seats[Number(seat)].connected;
    list.append(line(`Seat ${seat}${here ? " (joined)" : ""}: `, link, `link for seat ${seat}`));
  }
  if (watch) list.append(line("To watch (it shows no one's hand): ", watch, "link to watch the table"));
}

function renderOver(s) {
  const box = $("game-over");
  box.hidden = !s.over;
  if (!s.over) return;
  box.replaceChildren(el("h2", "Game over"), el("p", s.outcome, "outcome"));
  const scores = el("p", s.sides.map((x) => `${x.name}: ${x.score}`).join(" · "));
  const link = el("a", "Download the game record");
  link.href = s.record;
  link.id = "record-link";
  const note = el("p", "Replay it with ", "small");   // (the command as code: the page showed its backticks)
  note.append(el("code", "cassino replay FILE"), ".");
  const back = el("a", "Back to the lobby");
  back.href = "/";
  box.append(scores, link, note, back);
  if (s.you !== null) {
    const ask = el("button", review ? "Show the review again" : "Review your moves");
    ask.type = "button";
    ask.id = "review-button";
    ask.addEventListener("click", () => {
      if (review) { $("review").hidden = false; $("review").scrollIntoView(); return; }
      ask.disabled = true;
      say("Reviewing your moves…", "info");
      send({ type: "review" });
    });
    box.append(ask);
  }
}

// ---------------------------------------------------------------- learning aids
function renderAids(s) {
  $("aids").hidden = s.you === null;
  $("warn-toggle").disabled = s.over;
  const box = $("count");
  box.hidden = !$("count-toggle").checked || !s.count;
  if (box.hidden) return;
  box.dataset.position = `${s.hand_no}:${s.ply}`;
  const c = s.count;
  const sideName = (side) => {
    const found = s.sides.find((x) => x.side === Number(side));
    return found ? found.name : `side ${side}`;
  };
  box.replaceChildren(el("h3", "Counting aid"));
  if (c.scoring_cards.length) {
    const list = el("ul", "", "scoring-cards");
    // A card two items score (Kasino misär's ace of spades: an ace and a spade) is listed under each, by name.
    const names = c.scoring_cards.map((sc) => `${sc.card} ${sc.where}`);
    const shared = new Set(names).size !== names.length;
    for (const sc of c.scoring_cards) {
      const li = el("li", `${cardWords(sc.card, deck)}: ${sc.where}${shared ? ` (${sc.item})` : ""}`);
      li.dataset.card = sc.card;
      li.dataset.where = sc.where;
      list.append(li);
    }
    box.append(el("h4", "Scoring cards"), list);
  }
  const ranks = el("table", "", "ranks");
  const head = el("tr");
  const seen = el("tr");
  head.append(el("th", "rank"));
  seen.append(el("th", "seen"));
  for (const r of c.ranks) {
    head.append(el("th", r.rank));
    const td = el("td", `${r.seen}/${r.total}${r.in_hand ? ` +${r.in_hand}` : ""}`, "num");
    td.dataset.rank = r.rank;
    td.title = `${r.seen} seen of ${r.total}, ${r.in_hand} in your hand, ${r.unseen} not seen yet`;
    seen.append(td);
  }
  ranks.append(head, seen);
  box.append(el("h4", "Seen of each rank (+ in your hand)"), ranks);
  const items = el("ul", "", "items");
  for (const item of c.items) {
    // An "at least" item's count is shown against its number, as the terminal's aid does.
    const of = item.at_least !== null && item.at_least !== undefined ? ` of ${item.at_least}` : "";
    let held = Object.entries(item.held).map(([side, n]) => `${sideName(side)} ${n}${of}`).join(", ");
    const state = [];
    if (item.count === "last_capture") {   // who made it so far, as the terminal's aid says (an audit read a blank line)
      const last = Object.entries(item.held).filter(([, n]) => n).map(([side]) => sideName(side));
      held = last.length ? `${last[0]} so far` : "no capture yet";
      if (item.open) state.push(`${item.points} point${item.points !== 1 ? "s" : ""} to the side that captures last in the hand`);
    }
    if (item.partial) {   // primiera: each side's best cards so far, and the suits they come from (as the terminal)
      held = Object.entries(item.partial).map(([side, [total, k, n]]) =>
        !k ? `${sideName(side)} none yet` : `${sideName(side)} ${total}${k < n ? ` from ${k} of ${n} suits` : ""}`).join(", ");
      if (Object.entries(item.partial).some(([side, [total]]) => total && !item.held[side]))
        state.push("a side's cards count only once it has a card of every suit");
    }
    if (of) {
      const reached = Object.entries(item.held).filter(([, n]) => n >= item.at_least).map(([side]) => sideName(side));
      if (reached.length) state.push(`reached by ${reached.join(" and ")}`);
    }
    if (item.left !== null) state.push(`${item.left} still to capture`);
    if (item.decided_for !== null) state.push(`decided for ${sideName(item.decided_for)}`);
    else if (!item.open) state.push("decided");
    items.append(el("li", `${item.name.replace(/_/g, " ")}: ${held}${state.length ? ` (${state.join("; ")})` : ""}`));
  }
  box.append(el("h4", "Won so far"), items);
  const win = Object.entries(c.still_to_win).map(([side, p]) => `${sideName(side)} ${p}`).join(", ");
  // (items scoring each time an event happens, Tuxedo's oranges, have no bound of their own: named, as sweeps)
  const more = `${c.sweeps_open ? ", and sweeps" : ""}${(c.events_open || []).map((n) => `, and ${n.replace(/_/g, " ")}`).join("")}`;
  const still = el("p", c.penalties
    ? `Still to take this hand at most, of what is not decided yet: ${win} penalty points${more} (the lowest total wins).`
    : `Still to win this hand at most, of what is not decided yet: ${win} points${more}.`, "still");
  still.id = "still-to-win";
  box.append(still);
}

function onWarnings(msg) {
  if (!state || msg.hand_no !== state.hand_no || msg.ply !== state.ply || msg.asked !== warnedMove) return;  // stale
  if (!msg.warnings.length) {       // nothing to warn about (or not a move: the server says why when it is sent)
    const text = warnedMove;
    warnedMove = null;
    send({ type: "move", text });
    return;
  }
  const box = $("warnings");
  $("warned-move").textContent = msg.move;
  const list = box.querySelector("ul");
  list.replaceChildren();
  for (const w of msg.warnings) {
    const li = el("li", w.text);
    li.dataset.kind = w.kind;
    list.append(li);
  }
  box.hidden = false;
  $("warn-play").focus();
}

function onLessons(msg) {
  if (!$("tutorial-toggle").checked) return;
  const box = $("lessons");
  const list = box.querySelector("ol");
  let why = "at the start";
  if (msg.seat !== null) {
    const who = state && state.seats[msg.seat] ? state.seats[msg.seat].name : `seat ${msg.seat}`;
    why = `After ${msg.seat === (state && state.you) ? "your move" : who}: ${msg.move}`;
  }
  // One item a heading: the lessons of one rule taught together under it (a reader's audit saw a hand's end
  // as eight items, one a bare "Each side scores for what it captured in the hand:"), a list's items indented.
  let li = null;
  for (const lesson of msg.lessons) {
    const heading = lesson.heading || lesson.topic;
    if (!li || li.dataset.heading !== heading || li.dataset.ahead !== String(lesson.ahead)) {
      li = el("li", "", "lesson");
      li.dataset.key = lesson.key;
      li.dataset.topic = lesson.topic;
      li.dataset.heading = heading;
      li.dataset.ahead = String(lesson.ahead);
      // (a rule that limits the choice about to be made is said as such, not as what the last move did)
      const when = lesson.ahead ? "before you choose" : why;
      li.append(el("p", `${capital(heading)} (${when})`, "lesson-why"));
      list.append(li);
    }
    const text = el("blockquote", lesson.text, lesson.item ? "lesson-text lesson-item" : "lesson-text");
    text.dataset.key = lesson.key;
    li.append(text);
  }
  box.hidden = false;
  jumpToLessons();
}

// The lessons may lie below the screen's edge (a narrow window stacks them under the table, where an audit
// found them 300 px down with nothing near the hand to say so): a button at the edge brings them into view.
function jumpToLessons() {
  const box = $("lessons");
  const below = !box.hidden && box.getBoundingClientRect().top > window.innerHeight - 40;
  $("lessons-jump").hidden = !below;
  document.body.classList.toggle("lessons-below", below);
}

function closeLessons(read) {
  // Read (Got it): the server sends them no more, to any tab of this seat; switched off: kept for later.
  if (read && !$("lessons").hidden) send({ type: "lessons_read" });
  $("lessons").hidden = true;
  $("lessons-jump").hidden = true;
  document.body.classList.remove("lessons-below");
  $("lessons").querySelector("ol").replaceChildren();
}

function closeWarnings() {
  warnedMove = null;
  $("warnings").hidden = true;
}

function onReview(r) {
  review = r;
  step = 0;
  say("");
  const box = $("review");
  box.hidden = false;
  box.replaceChildren(el("h2", "Review of your moves"));
  const s = r.summary;
  const lost = Object.entries(s.loss_by_seat).map(([seat, p]) => `seat ${seat}: ${p} points lost`).join("; ");
  const others = [s.unclear ? `${s.unclear} unclear` : "", s.skipped ? `${s.skipped} not valued` : ""].filter(Boolean);
  const line = el("p", `${s.moves} moves reviewed, ${s.marked} lost points (${lost})${others.length ? `, ${others.join(", ")}` : ""}. Values are your side's points in the hand against the other side's: exact where you could know every card's place, otherwise the search's average over ${r.deals} deals of the cards you could not see.`);
  line.id = "review-summary";
  box.append(line);
  for (const n of r.notes) box.append(el("p", n, "small"));
  // A move made where a claim would have won the game (Hungarian Casino: the review judged the move alone).
  const claims = r.missed_claims || [];
  if (claims.length) {
    const c = claims[0];
    const missed = el("p", `A claim would have won the game at move ${c.action} (your side had ${c.points} points of ${c.target})${claims.length > 1 ? `, and at ${claims.length - 1} later moves` : ""}: press “Claim the game” before you move.`);
    missed.id = "review-missed-claims";
    box.append(missed);
  }
  box.append(el("h3", "The biggest mistakes"));
  if (!s.biggest.length) box.append(el("p", r.moves.length ? "No move lost points." : "No move to review."));
  else box.append(movesTable(s.biggest, "mistakes"));
  const all = el("details");
  all.append(el("summary", "Every move reviewed"), movesTable(r.moves, "reviewed"));
  box.append(all);
  box.append(el("h3", "The whole game, every hand shown"));
  const nav = el("div", "", "buttons");
  const prev = el("button", "◀ Previous");
  const next = el("button", "Next ▶");
  prev.type = next.type = "button";
  prev.id = "replay-prev";
  next.id = "replay-next";
  prev.addEventListener("click", () => showStep(step - 1));
  next.addEventListener("click", () => showStep(step + 1));
  const where = el("span", "", "where");
  where.id = "replay-where";
  nav.append(prev, where, next);
  const shown = el("div");
  shown.id = "replay";
  box.append(nav, shown);
  showStep(0);
  if (state) renderOver(state);
  box.scrollIntoView();
}

// What the review says of a move in the table: the better move where it lost points, "? MOVE" where it may
// have (unclear: its loss's interval straddles the margin), "not valued" where it was skipped (with why), ✓.
function verdictCell(m) {
  if (m.marked) return m.best;
  if (m.verdict === "unclear") return `? ${m.best}`;
  if (m.verdict === "skipped") return "not valued";
  return m.method === "forced" ? "(forced)" : "✓";
}

function movesTable(moves, id) {
  const table = el("table", "", "summary review-moves");
  table.id = id;
  const head = el("tr");
  for (const h of ["move", "hand", "played", "best", "lost"]) head.append(el("th", h));
  table.append(head);
  for (const m of moves) {
    const row = el("tr", "", m.marked ? "marked" : "");
    row.dataset.action = m.action;
    row.append(el("td", String(m.action), "num"), el("td", `${m.hand_no}, deal ${m.deal_no}`),
      el("td", m.played), el("td", verdictCell(m)),
      el("td", m.marked ? `${m.loss}` : "", "num"));
    row.title = `${m.method}${m.deals ? `, ${m.deals} deals` : ""}: played ${m.played_value}, best ${m.best_value}`;
    table.append(row);
  }
  return table;
}

function showStep(k) {
  if (!review || !review.replay.length) return;
  step = Math.max(0, Math.min(review.replay.length - 1, k));
  const st = review.replay[step];
  $("replay-where").textContent = ` ${st.action} of ${review.replay.length} `;
  $("replay-prev").disabled = step === 0;
  $("replay-next").disabled = step === review.replay.length - 1;
  const box = $("replay");
  box.dataset.action = st.action;
  box.replaceChildren(el("p", `Hand ${st.hand_no}, deal ${st.deal_no}`, "small"));
  const words = (cards) => (cards.length ? cards.map((c) => cardWords(c, deck)).join(" ") : "–");
  const hands = el("ul", "", "replay-hands");
  st.hands.forEach((h, seat) => {
    const li = el("li", `seat ${seat}${review.seats.includes(seat) ? " (you)" : ""}: ${words(h)}`);
    li.dataset.seat = seat;
    hands.append(li);
  });
  box.append(hands, el("p", `Table: ${words(st.table)}${st.builds.length ? `; builds: ${st.builds.join("; ")}` : ""}`));
  const m = review.moves.find((x) => x.action === st.action);
  let verdict = "";
  if (m && m.marked) verdict = ` ✗ lost ${m.loss} points: better ${m.best}`;
  else if (m && m.verdict === "unclear") verdict = ` ? unclear: ${m.best} may be worth more`;
  else if (m && m.verdict === "skipped") verdict = ` (${m.note})`;
  else if (m) verdict = m.method === "forced" ? " (forced)" : " ✓ best";
  if (m && m.note && m.verdict !== "skipped") verdict += ` (${m.note})`;
  const played = el("p", `seat ${st.seat} plays ${st.text}${verdict}`, m && m.marked ? "refused" : "");
  played.id = "replay-move";
  box.append(played);
}

// ---------------------------------------------------------------- clicking
/** "7S~2" -> "7S": two packs, the second copy of a card in the hand. The moves name the first
 *  copy (the same card for play), so a click on the second plays as a click on the first. */
function firstCopy(id) {
  return String(id).replace(/~[0-9]+$/, "");
}

function clickHand(name) {
  if (!myTurn()) { say(state && state.over ? "The game is over." : "It is not your turn.", "error"); return; }
  say("");
  if (!state.moves.some((m) => m.played.includes(name)) && name !== firstCopy(name)
      && !selected.played.includes(firstCopy(name))) name = firstCopy(name);
  found = null;
  if (selected.played.includes(name)) {
    selected.played = selected.played.filter((c) => c !== name);
    if (!selected.played.length) selected.items = [];
  } else {
    const together = [...selected.played, name];
    const fits = state.moves.some((m) => together.every((c) => m.played.includes(c))
      && selected.items.every((i) => m.items.includes(i)));
    if (fits) selected.played = together;
    else if (state.moves.some((m) => m.played.includes(name))) selected = { played: [name], items: [] };
    else if (partialList()) selected = { played: [name], items: [] };
    else { askWhy([name], []); return; }
  }
  checkFree();
  render();
}

// Cards chosen that no listed move uses, where the list is not whole: the server says what they make (with
// no hand card, the builds of exactly those cards in play).
function checkFree() {
  // (with no hand card the cut list may hold one build of these cards and leave out another value's: asked
  // even where one is listed; a re-attack saw `build 6 on 6H 6C` offered and `build 12` not)
  if (partialList() && ((selected.played.length && !exactMoves().length)
      || (state.free_actions && !selected.played.length && selected.items.length))) {
    send({ type: "why", played: selected.played, items: selected.items });
  }
}

function clickItem(id) {
  if (!myTurn()) { say(state && state.over ? "The game is over." : "It is not your turn.", "error"); return; }
  if (!selected.played.length && !selected.items.includes(id) && !freeClicks()
      && !freeMoves().some((m) => m.items.includes(id) && selected.items.every((i) => m.items.includes(i)))) {
    say(freeMoves().length ? "Click the card from your hand that you play, or table cards that build alone (lit up)."
      : "First click the card from your hand that you play.");
    return;
  }
  say("");
  found = null;
  if (selected.items.includes(id)) {
    selected.items = selected.items.filter((i) => i !== id);
  } else if (candidates().some((m) => m.items.includes(id)) || partialList()) {
    selected.items = [...selected.items, id];
  } else {
    askWhy(selected.played, [...selected.items, id]);
    return;
  }
  checkFree();
  render();
}

function play(text) {
  if (!connected()) { say(NOT_SENT, "error"); return false; }
  // A double click sends a move once: the second one, at the same position, was refused as out of turn (an audit).
  const at = state ? `${state.hand_no}:${state.ply}:${text}` : null;
  if (at !== null && at === lastPlayed) return true;
  lastPlayed = at;
  say("");
  if ($("warn-toggle").checked) {      // ask the server first; the move is sent once nothing is said or it is confirmed
    warnedMove = text;
    send({ type: "warn", text });
    return true;
  }
  send({ type: "move", text });
  return true;
}

// Every hint asked is answered: its move (with a note when its search was cut short), or why it was given
// up. A hint for a position the game has left is dropped.
function onHint(msg) {
  if (!state || msg.hand_no !== state.hand_no || msg.ply !== state.ply) return;
  const m = msg.move;
  if (!m) {
    say(capital(msg.message || "no hint"), "info");
    return;
  }
  selected = { played: [...m.played], items: [...m.items] };
  hinted = m.text;
  render();
  say(`Hint: ${m.words} (${m.text})${msg.message ? `: ${msg.message}` : ""}`, "info");
}

// ---------------------------------------------------------------- end of a hand
function cell(c) {
  let text = String(c.points);
  if (!c.counted) text = `(${c.points}, not counted)`;
  if (c.tally !== null) text += ` [${c.tally}]`;
  return text;
}

function summaryTable(msg) {
  const table = el("table", "", "summary");
  const head = el("tr");
  head.append(el("th", "item"), el("th", "for"));
  for (const side of msg.sides) head.append(el("th", side.name));
  table.append(head);
  for (const item of msg.items) {
    const row = el("tr");
    row.append(el("td", item.label || item.name), el("td", item.what));
    for (const c of item.cells) row.append(el("td", cell(c), "num"));
    table.append(row);
  }
  const hand = el("tr", "", "total");
  hand.append(el("td", "hand"), el("td", "points this hand"));
  for (const p of msg.hand_points) hand.append(el("td", String(p), "num"));
  const game = el("tr", "", "total");
  game.append(el("td", "game"), el("td", msg.target === null ? "score" : `score (${msg.lowest ? "limit" : "target"} ${msg.target})`));
  msg.scores_after.forEach((p, k) => game.append(el("td", `${p} (was ${msg.scores_before[k]})`, "num")));
  table.append(hand, game);
  return table;
}

function summaryNotes(msg) {
  const notes = el("ul", "", "notes");
  notes.append(el("li", "[n]: each side's count for the item (cards, sweeps, events, or a primiera total)."));
  if (msg.leftover.length) {
    const to = msg.leftover_to ? `went to ${msg.leftover_to}, the last to capture` : "stay: nobody captured this hand";
    notes.append(el("li", `Left on the table at the end: ${msg.leftover.map((c) => cardWords(c, deck)).join(" ")}; they ${to}.`));
  } else {
    notes.append(el("li", "Nothing was left on the table at the end."));
  }
  for (const n of msg.notes) notes.append(el("li", n));
  // (a partnership is "seats 1+3": they win)
  if (msg.winner) notes.append(el("li", `${msg.winner} ${/^seats /.test(msg.winner) ? "win" : "wins"} the game (${msg.ended_by}).`, "winner"));
  return notes;
}

function onHandEnd(msg) {
  const history = $("history");
  const done = el("details", "", "past-hand");
  done.dataset.hand = msg.hand_no;
  done.append(el("summary", `Hand ${msg.hand_no}: ${msg.sides.map((s, k) => `${s.name} ${msg.hand_points[k]}`).join(", ")}`));
  done.append(summaryTable(msg), summaryNotes(msg));
  const moves = el("ol", "", "moves");
  for (const e of msg.log) moves.append(logItem(e, (seat) => `seat ${seat}`));
  done.append(moves);
  history.prepend(done);
  if (msg.hand_no <= lastHandShown) return;      // seen before a reconnect
  lastHandShown = msg.hand_no;
  const dialog = $("hand-end");
  dialog.replaceChildren(el("h2", `Hand ${msg.hand_no} scoring`), summaryTable(msg), summaryNotes(msg));
  dialog.querySelector("h2").id = "hand-end-title";
  const close = el("button", msg.winner ? "See the table" : "Next hand");
  close.type = "button";
  close.id = "hand-end-close";
  close.addEventListener("click", () => dialog.close());
  dialog.append(close);
  if (!dialog.open) dialog.showModal();
}

// ---------------------------------------------------------------- wiring
function wire() {
  $("typed").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("notation").value.trim();
    if (!text) return;
    if (!myTurn()) { say(state && state.over ? "The game is over." : "It is not your turn.", "error"); return; }
    if (play(text)) $("notation").value = "";   // (kept where it was not sent: the connection was down)
  });
  $("hint").addEventListener("click", () => send({ type: "hint" }));
  $("undo").addEventListener("click", () => send({ type: "undo" }));
  // A claim asks first: a false one loses the game at once (a player's audit lost a game to one click).
  $("claim").addEventListener("click", () => {
    const side = state ? state.sides.find((x) => x.seats.includes(state.you)) : null;
    const who = side && side.seats.length > 1 ? "your side has" : "you have";
    $("claim-words").textContent = `Claim that ${who} reached ${state ? state.target : "the target"} points, `
      + "counting this hand's points so far? A correct claim wins the game at once; a false claim loses it.";
    $("claim-confirm").hidden = false;
    $("claim-no").focus();
  });
  $("claim-yes").addEventListener("click", () => { $("claim-confirm").hidden = true; send({ type: "claim" }); });
  $("claim-no").addEventListener("click", () => { $("claim-confirm").hidden = true; });
  $("clear").addEventListener("click", () => { selected = { played: [], items: [] }; say(""); if (state) render(); });
  $("count-toggle").addEventListener("change", () => send({ type: "count", on: $("count-toggle").checked }));
  $("warn-toggle").addEventListener("change", () => { if (!$("warn-toggle").checked) closeWarnings(); });
  $("tutorial-toggle").checked = new URLSearchParams(location.search).has("tutorial");
  $("tutorial-toggle").addEventListener("change", () => {
    const on = $("tutorial-toggle").checked;
    send({ type: "tutorial", on });
    if (!on) closeLessons(false);
    // The page's address says whether the tutorial is on, so a reload keeps it as it is.
    history.replaceState(null, "", `${location.pathname}${on ? "?tutorial" : ""}${location.hash}`);
  });
  $("lessons-close").addEventListener("click", () => closeLessons(true));
  $("lessons-jump").addEventListener("click", () => {
    $("lessons").scrollIntoView({ block: "start" });
    $("lessons-close").focus({ preventScroll: true });
    $("lessons-jump").hidden = true;
  });
  window.addEventListener("scroll", jumpToLessons, { passive: true });
  window.addEventListener("resize", jumpToLessons);
  $("warn-play").addEventListener("click", () => {
    const text = warnedMove;
    closeWarnings();
    if (text) send({ type: "move", text });
  });
  $("warn-back").addEventListener("click", () => {
    closeWarnings();
    lastPlayed = null;              // (taken back: the same move may be chosen again)
    say("Taken back: choose another move.", "info");
  });
  $("how-button").addEventListener("click", () => {
    const how = $("how");
    how.hidden = !how.hidden;
    $("how-button").setAttribute("aria-expanded", String(!how.hidden));
  });
  if (!token) {
    fatal = true;
    status("This page needs a seat's link (it ends with # and a token): open the table from the lobby.", "error");
    $("title").textContent = "No seat";   // (not "Connecting…": nothing is connecting)
    return;
  }
  // The token stays in the fragment, which browsers never send to a server.
  connect();
}

wire();
