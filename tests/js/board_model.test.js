// The dice board read from the server's view: positions, faces, cells, pushes in words.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  cellName, moveLine, normalize, parseCell, parseFaces, parsePosition, pushWords,
} from "../../src/cambio/web/static/board/model.js";

test("a position: rows from the top, seat letters, runs of neutral dice, the turn and ply", () => {
  const p = parsePosition("x4/5/2o2/5/4s o 7", 3);
  assert.equal(p.n, 5);
  assert.deepEqual([p.turn, p.ply, p.players], [1, 7, 3]);
  assert.equal(p.owners[4 * 5 + 0], 0);   // a5: x
  assert.equal(p.owners[2 * 5 + 2], 1);   // c3: o
  assert.equal(p.owners[0 * 5 + 4], 2);   // e1: s
  assert.equal(p.owners.filter((o) => o >= 0).length, 3);
  assert.deepEqual([parsePosition("3/3/3", 2).turn, parsePosition("3/3/3", 2).ply], [0, 0]);
});

test("faces, cells and the cells a push moves", () => {
  assert.deepEqual(parseFaces("012/345/501", 3), [5, 0, 1, 3, 4, 5, 0, 1, 2]);
  assert.deepEqual(parseFaces([1, 2], 1), [1, 2]);
  assert.equal(parseCell("c3", 5), 12);
  assert.equal(cellName(12, 5), "c3");
  assert.deepEqual(moveLine("a2>", 3), [3, 4, 5]);
  assert.deepEqual(moveLine("c2<", 3), [5, 4, 3]);
  assert.deepEqual(moveLine("b1^", 3), [1, 4, 7]);
  assert.deepEqual(moveLine("b3v", 3), [7, 4, 1]);
});

test("a push in words", () => {
  assert.deepEqual(["a3>", "e3<", "c1^", "d5v"].map(pushWords), ["into row 3 from the left",
    "into row 3 from the right", "into column C from the bottom", "into column D from the top"]);
});

test("a view normalized: symbols by number, missing ones filled, the end", () => {
  const b = normalize({ position: "x2/3/2o x 4", players: 2, turn: 0, rules: { line: 3 },
    symbols: ["star"], legal: ["a1>"], last: "c3v", winners: [0], phase: "over",
    outcome: { termination: "line" }, lines: [{ seat: 0, cells: [6, 7, 8] }], actor: null });
  assert.deepEqual(b.symbols, [3, 1]);
  assert.deepEqual([b.k, b.over, b.termination, b.faces, b.coach], [3, true, "line", null, null]);
  assert.deepEqual(b.lines, [{ seat: 0, cells: [6, 7, 8] }]);
  assert.equal(normalize({ position: "3/3/3 x", players: 2, rules: { line: 3 }, faces: "000/111/222", phase: "play" }).faces?.[0], 2);
});
