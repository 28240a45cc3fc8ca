// The board page: talks to the server over one WebSocket (protocol/BOARD.md)
// and draws the four games in SVG from the cells the server sends (draw.js). The server
// checks every move with the project's rules; the page only proposes.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

let socket = null;
let games = [];
let state = null;
let selected = null; // Breakthrough: the square of the piece picked up
let thinking = null; // the last `thinking` message of the current search
let thinkingSince = null; // when the engine to move began: { side, plies, at }
let hint = null; // the last hint: { move, score, plies } (plies: the ply it is for)

const LEVELS = [
  ["depth:2", "easy (depth 2)"],
  ["depth:3", "medium (depth 3)"],
  ["depth:4", "hard (depth 4)"],
  ["ms:100", "0.1 s a move"],
  ["ms:1000", "1 s a move"],
  ["ms:5000", "5 s a move"],
  ["custom", "custom limit…"],
];

// ---- connection ------------------------------------------------------------

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws`);
  socket.onopen = () => { $("connection").textContent = "connected"; };
  socket.onclose = () => { $("connection").textContent = "disconnected: reload the page"; };
  socket.onmessage = (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch (e) { return; }
    receive(message);
  };
}

function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    showError("not connected to the server");
    return;
  }
  socket.send(JSON.stringify(message));
}

function showError(text) {
  $("error").textContent = text || "";
}

function receive(message) {
  switch (message.type) {
    case "hello":
      games = message.games;
      fillGames();
      // A first visit opens on a game to play: the person moves first
      // against our engine at its easiest level (the form's defaults).
      if (!state) newGame();
      break;
    case "state":
      state = message;
      selected = null;
      thinking = null;
      noteEngineTurn();
      render();
      break;
    case "thinking":
      thinking = message;
      renderThinking();
      drawGraph();
      drawBoard();
      break;
    case "hint":
      hint = { move: message.move, score: message.score, plies: state ? state.moves.length : 0 };
      $("hint-move").textContent = hintText();
      showError("");
      drawBoard();
      break;
    case "record":
      $("record").value = message.text;
      offerDownload(message.filename, message.text);
      break;
    case "error":
      showError(message.message);
      break;
  }
}

// ---- the setup form --------------------------------------------------------

function gameInfo(name) {
  return games.find((g) => g.name === name);
}

function fillGames() {
  const select = $("game");
  select.innerHTML = "";
  const titles = { breakthrough: "Breakthrough", hex: "Hex", gomoku: "Gomoku", cavalo: "Jogo do Cavalo" };
  for (const g of games) {
    const option = document.createElement("option");
    option.value = g.name;
    option.textContent = titles[g.name] || g.name;
    select.appendChild(option);
  }
  for (const side of ["p1", "p2"]) {
    const level = $(`${side}-level`);
    level.innerHTML = "";
    for (const [value, text] of LEVELS) {
      const option = document.createElement("option");
      option.value = value;
      option.textContent = text;
      level.appendChild(option);
    }
    level.value = "depth:2";
    updatePlayer(side);
  }
  fillRules();
}

function fillRules() {
  const info = gameInfo($("game").value);
  const box = $("rules");
  box.innerHTML = "<legend>Rules</legend>";
  if (!info) return;
  $("p1-legend").textContent = `Player 1 (${info.colours[0]}, moves first)`;
  $("p2-legend").textContent = `Player 2 (${info.colours[1]})`;
  for (const rule of info.rules) {
    if (rule.kind === "button") continue;
    const label = document.createElement("label");
    label.textContent = rule.name + " ";
    let input;
    if (rule.kind === "check") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = rule.default === "true";
    } else if (rule.kind === "combo") {
      input = document.createElement("select");
      for (const choice of rule.choices) {
        const option = document.createElement("option");
        option.value = choice;
        option.textContent = choice;
        input.appendChild(option);
      }
      input.value = rule.default;
    } else {
      input = document.createElement("input");
      if (rule.kind === "spin") {
        input.type = "number";
        input.min = rule.min;
        input.max = rule.max;
      }
      input.value = rule.default;
    }
    input.id = `rule-${rule.name}`;
    input.dataset.rule = rule.name;
    input.dataset.kind = rule.kind;
    label.appendChild(input);
    if (rule.name === "BoardSeed") {
      const random = document.createElement("button");
      random.type = "button";
      random.textContent = "random";
      random.onclick = () => { input.value = Math.floor(Math.random() * (Number(rule.max) + 1)); };
      label.appendChild(random);
    }
    box.appendChild(label);
  }
}

function updatePlayer(side) {
  const box = $(side);
  const kind = $(`${side}-kind`).value;
  box.classList.toggle("human", kind === "human");
  box.classList.toggle("command", kind === "command");
  box.classList.toggle("custom", $(`${side}-level`).value === "custom");
}

function readLevel(side) {
  let text = $(`${side}-level`).value;
  if (text === "custom") text = $(`${side}-limit`).value.trim().replace("=", ":");
  const [kind, value] = text.split(":");
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) return null;
  if (kind === "depth") return { depth: number };
  if (kind === "nodes") return { nodes: number };
  if (kind === "ms") return { movetime_ms: number };
  return null;
}

function readPlayer(side) {
  const kind = $(`${side}-kind`).value;
  if (kind === "human") return { kind: "human" };
  const level = readLevel(side);
  if (!level) throw new Error(`${side}: a limit is depth=N, nodes=N or ms=N`);
  const player = { kind: "engine", level };
  if (kind === "command") {
    player.command = $(`${side}-command`).value;
    player.proto = $(`${side}-proto`).value;
  }
  return player;
}

function readRules() {
  const rules = [];
  for (const input of $("rules").querySelectorAll("[data-rule]")) {
    const value = input.dataset.kind === "check" ? String(input.checked) : String(input.value);
    rules.push([input.dataset.rule, value]);
  }
  return rules;
}

function newGame() {
  let players;
  try {
    players = [readPlayer("p1"), readPlayer("p2")];
  } catch (e) {
    showError(e.message);
    return;
  }
  showError("");
  $("result").textContent = "";
  send({
    type: "new_game",
    game: $("game").value,
    rules: readRules(),
    players,
    delay_ms: Math.max(0, Number($("delay").value) || 0),
  });
}

// ---- the game's state --------------------------------------------------------

function colourOf(side) {
  const info = state && gameInfo(state.game);
  if (!info) return side;
  return info.colours[side === "p1" ? 0 : 1];
}

function humanToMove() {
  return state && !state.result && state.players[state.to_move === "p1" ? 0 : 1].human;
}

function render() {
  const s = state;
  const mover = s.players[s.to_move === "p1" ? 0 : 1];
  $("status").textContent = s.result
    ? "Game over"
    : `${colourOf(s.to_move)} to move (${mover.name})` + (s.paused ? ", paused" : "");
  const reason = s.result
    ? s.result.reason.replace(/\bp1\b/g, colourOf("p1")).replace(/\bp2\b/g, colourOf("p2"))
    : "";
  $("result").textContent = s.result ? `${s.result.score}: ${reason}` : "";
  $("fen").value = s.fen;
  $("swap").hidden = !(humanToMove() && s.legal.includes("swap"));
  $("pass").hidden = !(humanToMove() && s.legal.includes("pass"));
  $("choices").innerHTML = "";
  const players = $("players");
  players.innerHTML = "";
  s.players.forEach((p, i) => {
    const line = document.createElement("div");
    line.textContent = `${colourOf(i === 0 ? "p1" : "p2")}: ${p.name}`;
    if (p.fault) {
      line.className = "faulted";
      line.textContent += ` — ${p.fault} (choose a player for this side and press "Use in this game")`;
    }
    players.appendChild(line);
  });
  const list = $("moves");
  list.innerHTML = "";
  for (const m of s.moves) {
    const item = document.createElement("li");
    let text = m.move;
    if (m.score) text += `  (${m.score}${m.depth ? `, d${m.depth}` : ""})`;
    item.textContent = text;
    list.appendChild(item);
  }
  list.scrollTop = list.scrollHeight;
  if (hint && hint.plies !== s.moves.length) hint = null;
  $("hint-move").textContent = hintText();
  renderThinking();
  drawGraph();
  drawBoard();
}

function hintText() {
  return hint ? `hint: ${hint.move}` + (hint.score ? ` (${hint.score})` : "") : "";
}

/// The engine to move and since when it thinks (the page's own clock, so
/// that an engine that says nothing while it thinks, as GTP engines do,
/// still shows it is at work).
function engineThinking() {
  const s = state;
  if (!s || s.result || s.paused) return null;
  const seat = s.players[s.to_move === "p1" ? 0 : 1];
  return seat.human || seat.fault ? null : s.to_move;
}

function noteEngineTurn() {
  const side = engineThinking();
  const plies = state.moves.length;
  if (!side) thinkingSince = null;
  else if (!thinkingSince || thinkingSince.plies !== plies) thinkingSince = { side, plies, at: Date.now() };
}

function lastEngineMove() {
  const moves = state ? state.moves : [];
  const m = moves[moves.length - 1];
  if (!m || (!m.millis && !m.score && !m.depth)) return "";
  const figures = [m.score && `score ${m.score}`, m.depth && `depth ${m.depth}`, m.nodes && `nodes ${m.nodes}`]
    .filter(Boolean).join(", ");
  return `played ${m.move} in ${(m.millis / 1000).toFixed(1)} s` + (figures ? ` (${figures})` : "");
}

function renderThinking() {
  const lines = [];
  if (thinkingSince) {
    const seconds = ((Date.now() - thinkingSince.at) / 1000).toFixed(1);
    lines.push(`${colourOf(thinkingSince.side)} thinking: ${seconds} s`);
  }
  if (thinking) {
    const t = thinking;
    lines.push(`depth ${t.depth ?? "?"}, score ${t.score ?? "?"}, nodes ${t.nodes ?? "?"}`);
    if (t.pv.length) lines.push(`pv ${t.pv.join(" ")}`);
    if (t.message) lines.push(`says: ${t.message}`);
  }
  if (!thinkingSince) {
    const last = lastEngineMove();
    if (last) lines.push(last);
  }
  $("thinking").textContent = lines.length ? lines.join("\n") : "—";
}

/// A score (`cp 35`, `mate -3`, as the engine gave it, from the mover's
/// side) from player 1's side, clipped to +-1000 (a mate is at the edge).
function scoreForP1(score, moverIsP1) {
  if (!score) return null;
  const [kind, value] = score.split(" ");
  let number = Number(value);
  if (!Number.isFinite(number)) return null;
  if (kind === "mate") number = number > 0 ? 1000 : -1000;
  number = Math.max(-1000, Math.min(1000, number));
  return moverIsP1 ? number : -number;
}

/// The score graph: each engine move's score from player 1's side (up is
/// good for player 1), the search under way as a dashed last stretch.
function drawGraph() {
  const graph = $("graph");
  graph.innerHTML = "";
  const [width, height] = [300, 100];
  const y = (score) => height / 2 - (score * (height / 2 - 4)) / 1000;
  graph.appendChild(element("line", { x1: 0, y1: height / 2, x2: width, y2: height / 2, stroke: "#aaa" }));
  graph.appendChild(element("text", { x: 2, y: 10, class: "graph-label" }, `${colourOf("p1")} better`));
  graph.appendChild(element("text", { x: 2, y: height - 3, class: "graph-label" }, `${colourOf("p2")} better`));
  const n = state.moves.length + (thinking ? 1 : 0);
  const x = (ply) => (width * (ply + 1)) / Math.max(n, 1);
  const points = [];
  state.moves.forEach((m, i) => {
    const score = scoreForP1(m.score, m.side === "p1");
    if (score !== null) points.push([x(i), y(score)]);
  });
  const line = (pts, extra) => element("polyline", { points: pts.map((p) => p.join(",")).join(" "), fill: "none", stroke: "#246", "stroke-width": 1.5, ...extra });
  if (points.length) graph.appendChild(line(points, { id: "graph-line" }));
  const live = thinking && scoreForP1(thinking.score, thinking.side === "p1");
  if (live !== null && live !== undefined && thinking) {
    const now = [x(state.moves.length), y(live)];
    const from = points.length ? points[points.length - 1] : [0, height / 2];
    graph.appendChild(line([from, now], { "stroke-dasharray": "3,2", id: "graph-live" }));
  }
  graph.dataset.points = String(points.length);
}

// ---- playing by clicks -----------------------------------------------------

function play(move) {
  showError("");
  send({ type: "move", move });
}

function clickCell(name) {
  if (!state) return;
  if (state.result) { showError("the game is over: start a new game"); return; }
  if (!humanToMove()) { showError(`it is ${colourOf(state.to_move)}'s turn, played by an engine`); return; }
  switch (state.game) {
    case "breakthrough": return clickBreakthrough(name);
    case "cavalo": return clickCavalo(name);
    default: return play(name);
  }
}

function clickBreakthrough(name) {
  const own = state.legal.some((m) => m.startsWith(name));
  if (selected === null || (own && selected !== name)) {
    if (!own) {
      showError(`${name}: pick up one of your own pieces that can move`);
      return;
    }
    selected = name;
    showError("");
    drawBoard();
    return;
  }
  if (selected === name) { selected = null; drawBoard(); return; }
  play(selected + name);
}

function clickCavalo(name) {
  const options = state.legal.filter((m) => m === name || m.startsWith(name + "/"));
  if (options.length <= 1) {
    play(options[0] || name);
    return;
  }
  // A double: the player chooses which other double leaves the board.
  const box = $("choices");
  box.innerHTML = `Landing on ${name} removes another double: `;
  for (const option of options) {
    const button = document.createElement("button");
    button.textContent = `remove ${option.split("/")[1]}`;
    button.dataset.move = option;
    button.onclick = () => { box.innerHTML = ""; play(option); };
    box.appendChild(button);
  }
}

// ---- records ---------------------------------------------------------------

function offerDownload(filename, text) {
  const link = $("download");
  if (link.href) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  link.download = filename;
  link.textContent = `download ${filename}`;
  link.hidden = false;
}

// ---- wiring ----------------------------------------------------------------

function wire() {
  $("game").onchange = fillRules;
  for (const side of ["p1", "p2"]) {
    $(`${side}-kind`).onchange = () => updatePlayer(side);
    $(`${side}-level`).onchange = () => updatePlayer(side);
    // A new player for one side of the game being played: after an engine
    // failed, or to change an engine or its level.
    $(`${side}-apply`).onclick = () => {
      try {
        showError("");
        send({ type: "set_player", side, player: readPlayer(side) });
      } catch (e) {
        showError(e.message);
      }
    };
  }
  $("new-game").onclick = newGame;
  $("swap").onclick = () => play("swap");
  $("pass").onclick = () => play("pass");
  for (const action of ["undo", "hint", "resign", "pause", "resume", "step", "save", "move_now"]) {
    $(action.replace("_", "-")).onclick = () => { showError(""); send({ type: action }); };
  }
  $("load").onclick = () => send({ type: "load", text: $("record").value });
  $("load-file").onchange = async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    $("record").value = await file.text();
    send({ type: "load", text: $("record").value });
  };
  // The FEN is always put in its field, selected: where the clipboard is
  // not offered (no secure context, no permission) it is copied from there.
  $("copy-fen").onclick = async () => {
    if (!state) return;
    const field = $("fen");
    field.value = state.fen;
    field.focus();
    field.select();
    try {
      await navigator.clipboard.writeText(state.fen);
      showError("FEN copied");
    } catch (e) {
      showError(document.execCommand("copy") ? "FEN copied" : "FEN selected below: copy it with Ctrl-C");
    }
  };
  // The thinking engine's clock runs on the page.
  setInterval(() => { if (thinkingSince) renderThinking(); }, 200);
  connect();
}

wire();
