// @ts-check
// What the page shows for a refusal -- an illegal move's reason, a REST error's toast, a
// game that was not rated, a dice game's end, a power being used -- in the reader's
// language: the words the server named by key, else the code's own; never the server's
// English `message`.
import "./dom.js";
import { test } from "node:test";
import assert from "node:assert/strict";

import { ApiError, errorText, seatName } from "../../src/cambio/web/static/common.js";
import { t, useLanguage } from "../../src/cambio/web/static/i18n.js";
import { endWhy } from "../../src/cambio/web/static/board/model.js";
import en from "../../src/cambio/web/static/locales/en.json" with { type: "json" };

/** @type {Record<string, unknown>} */
const english = en;
const OTHERS = /** @type {const} */ (["de", "es", "fr"]);

/** A refused move as the server sends it (cambio.server.refusals). */
const notYourTurn = { type: "error", code: "illegal", message: "it is seat 1's move (turn_start)", ref: 3, key: "refusal.notYourTurn" };
/** A REST error as api() throws it (a name too long). */
const tooLong = new ApiError(400, "bad_request", "names are limited to 40 characters", "refusal.nameTooLong", { max: 40 });

test("in English the key's words, with the params filled in", async () => {
  await useLanguage("en");
  assert.equal(errorText(notYourTurn), "It is not your turn.");
  assert.equal(errorText(tooLong), "Names are limited to 40 characters.");
});

for (const lang of OTHERS) {
  test(`a ${lang} reader sees a refusal in ${lang}, never the server's English`, async () => {
    await useLanguage(lang);
    const shown = [
      errorText(notYourTurn),
      errorText(tooLong),
      // A key this page does not know (a newer server), and none at all: the code's words.
      errorText({ code: "conflict", message: "a new refusal", key: "refusal.fromTheFuture" }),
      errorText(new ApiError(404, "not_found", "no such table")),
      errorText(new ApiError(0, "network", "")),
      errorText({ code: "illegal", message: "'snap 0.9' is not one of the moves allowed now" }),
    ];
    assert.match(shown[1], /40/);
    assert.equal(shown[2], t("error.conflict"));
    const englishTexts = new Set(Object.values(english).filter((v) => typeof v === "string"));
    for (const text of shown) {
      assert.ok(!englishTexts.has(text), `${lang}: "${text}" is English`);
      assert.ok(!/seat|limited|no such|refusal\./.test(text), `${lang}: "${text}"`);
    }
    // A dice game's end and a not-rated reason too.
    for (const why of ["line", "repetition", "move_cap", "no_moves"]) {
      assert.notEqual(endWhy(why), english[`dice.why.${why}`]);
    }
    assert.notEqual(t("unrated.noMove"), english["unrated.noMove"]);
  });
}

test("params that are not text or numbers are left out, and a missing code is a failure", async () => {
  await useLanguage("en");
  assert.equal(errorText({ code: "bad_request", key: "refusal.nameTooLong", params: { max: { evil: 1 } } }),
    "Names are limited to {max} characters.");
  assert.equal(errorText(null), t("error.failed"));
  assert.equal(errorText({ code: "teapot" }), t("error.failed"));
});

test("a shipped bot's seat is named in the reader's language; an outside bot keeps its name", async () => {
  const summary = /** @type {any} */ ({ seats: [
    { seat: 0, kind: "human", name: "Ann" }, { seat: 1, kind: "bot", bot: "medium", name: "Medium bot" },
    { seat: 2, kind: "bot", bot: "mine", name: "mine bot" }] });
  await useLanguage("de");
  assert.equal(seatName(summary, 1), "Mittel (Bot)");
  assert.equal(seatName(summary, 2), "mine bot");
  assert.equal(seatName(summary, 0), "Ann");
  await useLanguage("en");
  assert.equal(seatName(summary, 1), "Medium bot");
});
