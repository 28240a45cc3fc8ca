// The board page's drawing: each game's board in SVG from the cells the
// server sends (`state.board`: rows from the top, each cell's label), and
// the marks over it (the engine's principal variation, the hint).
// Loaded before board.js, whose state it draws.
"use strict";

let centres = {}; // each cell's centre on the board drawn, by name
let cellRadius = 10; // how large the board drawn marks a cell

// ---- drawing ---------------------------------------------------------------

function element(name, attributes, text) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function cellName(col, row) {
  return String.fromCharCode(97 + col) + (row + 1);
}

/// The board's rows from the top, "." for an empty cell.
function boardRows() {
  return state.board.map((row) => row.map((cell) => (cell === "" ? "." : cell)));
}

function lastMove() {
  return state.moves.length ? state.moves[state.moves.length - 1].move : null;
}

function moveTarget(mv) {
  if (state.game === "breakthrough") return mv.length >= 4 ? mv.slice(-2) : null;
  if (mv === "swap" || mv === "pass") return null;
  return mv.split("/")[0];
}

function drawBoard() {
  const box = $("board");
  box.innerHTML = "";
  if (!state) return;
  const draw = { hex: drawHex, gomoku: drawGomoku, breakthrough: drawBreakthrough, cavalo: drawCavalo }[state.game];
  if (!draw) return;
  centres = {};
  const svg = draw();
  drawPv(svg);
  drawHint(svg);
  box.appendChild(svg);
}

/// A cell of the board drawn: clickable, and its centre kept for the marks
/// drawn over the board.
function onCell(node, name, cx, cy) {
  node.classList.add("cell");
  node.dataset.cell = name;
  node.addEventListener("click", () => clickCell(name));
  centres[name] = [cx, cy];
}

// ---- marks over the board: the engine's principal variation and the hint --

const STONE_FILL = { p1: "#111", p2: "#f8f8f8" };

/// Where a move goes from and to on the board drawn; `from` is null for a
/// stone put on the board. `knights` follows Jogo do Cavalo's knights.
function moveEnds(mv, side, knights) {
  if (mv === "swap" || mv === "pass") return null;
  if (state.game === "breakthrough") return mv.length >= 4 ? { from: mv.slice(0, 2), to: mv.slice(-2) } : null;
  const to = mv.split("/")[0];
  if (state.game !== "cavalo") return { from: null, to };
  const from = knights[side];
  knights[side] = to;
  return { from, to };
}

/// Where Jogo do Cavalo's knights stand (row 1 is the top row drawn).
function cavaloKnights() {
  const knights = { p1: null, p2: null };
  if (state.game !== "cavalo") return knights;
  state.board.forEach((row, r) => row.forEach((cell, c) => {
    if (cell === "W") knights.p1 = cellName(c, r);
    if (cell === "B") knights.p2 = cellName(c, r);
  }));
  return knights;
}

function arrow(svg, from, to, className) {
  const [x1, y1] = centres[from];
  const [x2, y2] = centres[to];
  svg.appendChild(element("line", { x1, y1, x2, y2, class: `${className} arrow`, "marker-end": `url(#${className}-head)` }));
}

function arrowHeads(svg) {
  const defs = element("defs", {});
  for (const name of ["pv", "hint"]) {
    const marker = element("marker", { id: `${name}-head`, viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" });
    marker.appendChild(element("path", { d: "M 0 0 L 10 5 L 0 10 z", class: `${name}-head` }));
    defs.appendChild(marker);
  }
  svg.appendChild(defs);
}

/// The principal variation of the search under way: translucent numbered
/// stones (Hex, Gomoku) or numbered arrows (Breakthrough, Jogo do Cavalo).
function drawPv(svg) {
  arrowHeads(svg);
  if (!thinking || !thinking.pv || !thinking.pv.length) return;
  const knights = cavaloKnights();
  let side = thinking.side;
  thinking.pv.slice(0, 8).forEach((mv, i) => {
    const ends = moveEnds(mv, side, knights);
    const mover = side;
    side = side === "p1" ? "p2" : "p1";
    if (!ends || !centres[ends.to]) return;
    const [cx, cy] = centres[ends.to];
    if (ends.from && centres[ends.from]) arrow(svg, ends.from, ends.to, "pv");
    else svg.appendChild(element("circle", { cx, cy, r: cellRadius, fill: STONE_FILL[mover], class: "pv-stone" }));
    const dark = !ends.from && mover === "p1";
    svg.appendChild(element("text", { x: cx, y: cy + 4, "text-anchor": "middle", class: dark ? "pv pv-light" : "pv" }, i + 1));
  });
}

/// The hint: its cell ringed, or its arrow for a piece that moves.
function drawHint(svg) {
  if (!hint || !state || hint.plies !== state.moves.length) return;
  const ends = moveEnds(hint.move, state.to_move, cavaloKnights());
  if (!ends || !centres[ends.to]) return;
  if (ends.from && centres[ends.from]) arrow(svg, ends.from, ends.to, "hint");
  const [cx, cy] = centres[ends.to];
  svg.appendChild(element("circle", { cx, cy, r: cellRadius * 1.1, class: "hint-mark", "data-hint": ends.to }));
}

function drawHex() {
  const rows = boardRows();
  const n = rows.length;
  const r = 20; // hexagon radius
  cellRadius = r * 0.6;
  const w = Math.sqrt(3) * r;
  const width = w * (n + (n - 1) / 2) + 2 * r + 50;
  const height = 1.5 * r * (n - 1) + 2 * r + 60;
  const svg = element("svg", { viewBox: `0 0 ${width} ${height}`, id: "board-svg" });
  const center = (col, row) => [30 + w / 2 + col * w + (row * w) / 2, 30 + r + row * 1.5 * r];
  // The edges: Black joins row 1 to the last row, White column a to the last column.
  const [x0, y0] = center(0, 0);
  const [x1, y1] = center(n - 1, 0);
  const [x2, y2] = center(0, n - 1);
  const [x3, y3] = center(n - 1, n - 1);
  // Each player's two edges in the player's colour, outlined so that
  // White's show on the light background.
  const edge = (a, b, colour) => {
    const line = { x1: a[0], y1: a[1], x2: b[0], y2: b[1], "stroke-linecap": "round" };
    svg.appendChild(element("line", { ...line, stroke: "#555", "stroke-width": 12 }));
    svg.appendChild(element("line", { ...line, stroke: colour, "stroke-width": 9, class: `edge edge-${colour === "#111" ? "black" : "white"}` }));
  };
  const gap = 8;
  edge([x0 - w / 2, y0 - r - gap], [x1 + w / 2, y1 - r - gap], "#111");
  edge([x2 - w / 2, y2 + r + gap], [x3 + w / 2, y3 + r + gap], "#111");
  edge([x0 - w / 2 - gap, y0 - r / 2], [x2 - w / 2 - gap, y2 + r / 2], "#f8f8f8");
  edge([x1 + w / 2 + gap, y1 - r / 2], [x3 + w / 2 + gap, y3 + r / 2], "#f8f8f8");
  const last = lastMove();
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      const [cx, cy] = center(col, row);
      const corners = [];
      for (let k = 0; k < 6; k++) {
        const angle = (Math.PI / 3) * k + Math.PI / 6;
        corners.push(`${cx + r * Math.cos(angle)},${cy + r * Math.sin(angle)}`);
      }
      const name = cellName(col, row);
      const stone = rows[row][col];
      const fill = stone === "x" ? "#111" : stone === "o" ? "#f8f8f8" : "#d9b36c";
      const hexagon = element("polygon", { points: corners.join(" "), fill, stroke: "#6b5330", "stroke-width": 1 });
      if (name === last) hexagon.classList.add("last");
      onCell(hexagon, name, cx, cy);
      svg.appendChild(hexagon);
    }
    svg.appendChild(element("text", { x: center(0, row)[0] - w - 8, y: center(0, row)[1] + 4, class: "coord" }, row + 1));
  }
  for (let col = 0; col < n; col++) {
    svg.appendChild(element("text", { x: center(col, 0)[0] - 3, y: 14, class: "coord" }, String.fromCharCode(97 + col)));
  }
  return svg;
}

function drawGomoku() {
  const rows = boardRows(); // the top row (highest number) first
  const n = rows.length;
  const step = 28;
  const margin = 30;
  cellRadius = step * 0.4;
  const size = margin * 2 + step * (n - 1);
  const svg = element("svg", { viewBox: `0 0 ${size} ${size}`, id: "board-svg" });
  svg.appendChild(element("rect", { x: 0, y: 0, width: size, height: size, fill: "#e3c07a" }));
  for (let i = 0; i < n; i++) {
    const p = margin + i * step;
    svg.appendChild(element("line", { x1: margin, y1: p, x2: size - margin, y2: p, stroke: "#5a4520" }));
    svg.appendChild(element("line", { x1: p, y1: margin, x2: p, y2: size - margin, stroke: "#5a4520" }));
    svg.appendChild(element("text", { x: p - 3, y: size - 8, class: "coord" }, String.fromCharCode(97 + i)));
    svg.appendChild(element("text", { x: 4, y: margin + (n - 1 - i) * step + 4, class: "coord" }, i + 1));
  }
  const last = lastMove();
  for (let top = 0; top < n; top++) {
    const row = n - 1 - top;
    for (let col = 0; col < n; col++) {
      const stone = rows[top][col];
      const cx = margin + col * step;
      const cy = margin + top * step;
      const name = cellName(col, row);
      const circle = element("circle", {
        cx, cy, r: step * 0.45,
        fill: stone === "x" ? "#111" : stone === "o" ? "#fafafa" : "transparent",
        stroke: stone === "." ? "none" : "#333",
      });
      if (name === last) circle.classList.add("last");
      onCell(circle, name, cx, cy);
      svg.appendChild(circle);
    }
  }
  return svg;
}

function drawBreakthrough() {
  const ranks = boardRows(); // the last rank first
  const rows = ranks.length;
  const columns = ranks[0].length;
  const step = 48;
  const margin = 24;
  cellRadius = step * 0.3;
  const svg = element("svg", { viewBox: `0 0 ${margin * 2 + step * columns} ${margin * 2 + step * rows}`, id: "board-svg" });
  const targets = selected
    ? state.legal.filter((m) => m.startsWith(selected)).map((m) => m.slice(2, 4))
    : [];
  const last = lastMove();
  for (let top = 0; top < rows; top++) {
    const rank = rows - 1 - top;
    for (let file = 0; file < columns; file++) {
      const name = cellName(file, rank);
      const x = margin + file * step;
      const y = margin + top * step;
      const square = element("rect", { x, y, width: step, height: step, fill: (file + rank) % 2 ? "#eed9b6" : "#b58863", stroke: "#6b5330", "stroke-width": 0.5 });
      if (name === selected) square.classList.add("selected");
      if (last && (last.slice(0, 2) === name || last.slice(-2) === name)) square.classList.add("last");
      onCell(square, name, x + step / 2, y + step / 2);
      svg.appendChild(square);
      const piece = ranks[top][file];
      if (piece === "P" || piece === "p") {
        svg.appendChild(element("circle", {
          cx: x + step / 2, cy: y + step / 2, r: step * 0.34,
          fill: piece === "P" ? "#fafafa" : "#222", stroke: piece === "P" ? "#333" : "#000", "stroke-width": 2,
          "pointer-events": "none", class: "piece", "data-piece": piece === "P" ? "white" : "black",
        }));
      }
      if (targets.includes(name)) svg.appendChild(element("circle", { cx: x + step / 2, cy: y + step / 2, r: step * 0.15, class: "target" }));
    }
    svg.appendChild(element("text", { x: 6, y: margin + top * step + step / 2 + 4, class: "coord" }, rank + 1));
  }
  for (let file = 0; file < columns; file++) {
    svg.appendChild(element("text", { x: margin + file * step + step / 2 - 3, y: margin * 1.6 + rows * step, class: "coord" }, String.fromCharCode(97 + file)));
  }
  return svg;
}

function drawCavalo() {
  const rows = state.board; // row 1 first: a value, "x" removed, "W" or "B" a knight
  const step = 44;
  const margin = 24;
  cellRadius = step * 0.3;
  const width = margin * 2 + step * 10;
  const svg = element("svg", { viewBox: `0 0 ${width} ${width + 40}`, id: "board-svg" });
  const last = lastMove() && moveTarget(lastMove());
  // Row 1 at the top, as the seed's display showed it.
  for (let row = 0; row < 10; row++) {
    for (let col = 0; col < 10; col++) {
      const name = cellName(col, row);
      const x = margin + col * step;
      const y = margin + row * step;
      const value = rows[row][col];
      const knight = value === "W" || value === "B" ? value : null;
      const removed = value === "x";
      const square = element("rect", { x, y, width: step, height: step, fill: removed ? "#555" : (col + row) % 2 ? "#f3e7cf" : "#e2cfa6", stroke: "#6b5330", "stroke-width": 0.5 });
      if (name === last) square.classList.add("last");
      onCell(square, name, x + step / 2, y + step / 2);
      svg.appendChild(square);
      if (knight) {
        svg.appendChild(element("circle", { cx: x + step / 2, cy: y + step / 2, r: step * 0.38, fill: knight === "W" ? "#fafafa" : "#222", stroke: "#000", "stroke-width": 1.5, "pointer-events": "none" }));
        svg.appendChild(element("text", { x: x + step / 2 - 7, y: y + step / 2 + 7, "font-size": 20, fill: knight === "W" ? "#000" : "#fff", "pointer-events": "none", class: "knight" }, "♞"));
      } else if (!removed) {
        svg.appendChild(element("text", { x: x + step / 2 - (value.length > 1 ? 8 : 4), y: y + step / 2 + 5, "font-size": 14, "pointer-events": "none" }, value));
      }
    }
    svg.appendChild(element("text", { x: 4, y: margin + row * step + step / 2 + 4, class: "coord" }, row + 1));
  }
  for (let col = 0; col < 10; col++) {
    svg.appendChild(element("text", { x: margin + col * step + step / 2 - 3, y: 16, class: "coord" }, String.fromCharCode(97 + col)));
  }
  svg.appendChild(element("text", { x: margin, y: width + 20, "font-size": 16, id: "scores" }, state.caption || ""));
  return svg;
}
