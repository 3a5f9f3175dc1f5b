// A profile's words about bots: their seats in a game row and their strength, in the
// reader's language (the server's own names and research figures are English).
import "./dom.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { botStrength, playerName } from "../../src/cambio/web/static/common.js";

test("a shipped bot's seat is named in the reader's words, a person by their name", () => {
  assert.equal(playerName({ player: "bot:memory", name: "Medium bot" }), "Medium bot");
  assert.equal(playerName({ player: "p1", name: "Ann" }), "Ann");
  assert.equal(playerName({ player: "bot:outsider", name: "Outsider bot" }), "Outsider bot",
    "a bot the catalogs do not know keeps the server's name");
});

test("a bot's strength as stars out of five", () => {
  assert.equal(botStrength(3), "A bot · strength ★★★☆☆ (3 of 5)");
  assert.equal(botStrength(0), "A bot · strength not measured");
  assert.equal(botStrength(null), "A bot · strength not measured");
  assert.equal(botStrength(9), "A bot · strength ★★★★★ (5 of 5)");
});
