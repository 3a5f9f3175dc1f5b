// @ts-check
import "./dom.js";
import { test } from "node:test";
import assert from "node:assert/strict";

import { useLanguage } from "../../src/cambio/web/static/i18n.js";
import { fromNow, newlyYourMove, titleWithCount } from "../../src/cambio/web/static/yourgames.js";

/** @param {string} id @param {boolean} mine */
const game = (id, mine) => ({ table: { id }, seat: 0, turn: mine ? 0 : 1, your_move: mine, deadline: null, link: `/t/${id}` });

test("the title counts the games waiting for the player, once, and none at 0", () => {
  assert.equal(titleWithCount("Cambio", 2), "(2) Cambio");
  assert.equal(titleWithCount("(2) Cambio", 1), "(1) Cambio");
  assert.equal(titleWithCount("(3) Cambio", 0), "Cambio");
  assert.equal(titleWithCount("(not a count) Cambio", 0), "(not a count) Cambio");
});

test("a notification is due for a game that became the player's move since the last look", () => {
  const games = [game("a", true), game("b", true), game("c", false)];
  assert.deepEqual(newlyYourMove(["a"], games).map((g) => g.table.id), ["b"]);
  assert.deepEqual(newlyYourMove(["a", "b", "c"], games), []);
  assert.deepEqual(newlyYourMove([], [game("c", false)]), []);
});

test("a deadline reads as a time from now in the reader's language", async () => {
  const now = Date.parse("2026-12-05T10:00:00Z");
  /** @param {string} iso */
  const at = (iso) => Date.parse(iso) / 1000;
  await useLanguage("en");
  assert.equal(fromNow(at("2026-12-05T13:00:00Z"), now), "in 3 hours");
  assert.equal(fromNow(at("2026-12-07T10:00:00Z"), now), "in 2 days");
  assert.equal(fromNow(at("2026-12-05T09:55:00Z"), now), "5 minutes ago");
  await useLanguage("de");
  assert.equal(fromNow(at("2026-12-05T13:00:00Z"), now), "in 3 Stunden");
  await useLanguage("en");
});
