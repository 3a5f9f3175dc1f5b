// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";

import { t, useLanguage, language } from "../../src/cambio/web/static/i18n.js";

test("t picks the English plural form by count and formats the number", async () => {
  await useLanguage("en");
  assert.equal(t("common.players", { count: 1 }), "1 player");
  assert.equal(t("common.players", { count: 1200 }), "1,200 players");
});

test("an unknown key shows itself, so a missing key is visible rather than blank", () => {
  assert.equal(t("no.such.key"), "no.such.key");
});

test("a language without a catalog falls back to English", async () => {
  const got = await useLanguage(/** @type {any} */ ("xx"));
  assert.equal(got, "en");
  assert.equal(language(), "en");
});
