// The action bar (the decision's buttons: confirm a choice, draw, take, discard, a power's
// keep or skip, Cambio, Hint, Snap…) and the results panel after a reveal. Functions of the
// state; the buttons report intents to the controller.
import { h, seatName } from "../common.js";
import { matchOver, nextRoundNote, tableHistory } from "../match.js";
import { cardText, isCode } from "../cardface.js";
import { powerText } from "../rules.js";
import { hintBusy } from "./hints.js";
import { completed, legal, pileTop, slotActions, slotName, snaps } from "./model.js";
import { END_REASONS, statusText } from "./status.js";
import { t } from "../i18n.js";
import { replayPath } from "../review/model.js";

/** @typedef {import("./model.js").CardsState} CardsState */
/** @typedef {import("../messages.js").CardView} CardView */
/** @typedef {import("./view.js").ViewEnv} ViewEnv */

const VERB_WORDS = /** @type {Record<string, string>} */ ({
  swap: t("verb.swap"), exchange: t("verb.exchange"), give: t("verb.give"), peek: t("verb.peek"), look: t("verb.look"), switch: t("verb.switch"), snap: t("verb.snap"),
});

/** What the held card's power would do if discarded now, under the buttons.
 * @param {CardsState} st @param {CardView} view */
export function powerNote(st, view) {
  const what = isCode(view.held) ? powerText(st.rulesCat, view.rules, view.held) : null;
  return what ? h("p.power-note", { id: "power-note", dataset: { key: "power-note" } },
    t("actions.powerNote", { card: cardText(view.held), power: `${what.charAt(0).toLowerCase()}${what.slice(1)}` })) : null;
}

/** The decision's buttons. @param {CardsState} st @param {CardView} view
 * @param {Set<string>} marks @param {ViewEnv} env */
export function actionsView(st, view, marks, env) {
  const bar = h("div.actions", { role: "toolbar", "aria-label": t("actions.label"), dataset: { key: "actions" } });
  if (st.seat === null || view.phase === "round_over") return bar;
  const send = (/** @type {string} */ action) => () => env.dispatch({ type: "send", action });
  /** @param {string} key @param {string} text @param {() => void} onclick @param {string} [cls] */
  const button = (key, text, onclick, cls = "") => h("button", {
    type: "button", class: `${cls}${marks.has(key) ? " hinted" : ""}`, dataset: { key: `btn-${key}`, action: key }, onclick,
  }, text);

  // Confirm a completed selection.
  if (st.selected.length) {
    for (const a of completed(st)) {
      const what = a.targets.map((x) => slotName(st, x)).join(t("common.and"));
      bar.append(button(`confirm-${a.verb}`, `${VERB_WORDS[a.verb] || a.verb}: ${what}`, send(a.text), "primary"));
    }
    bar.append(button("cancel", t("common.cancel"), () => env.dispatch({ type: "cancel" }), "ghost"));
  }
  const last = [];
  for (const a of legal(st)) {
    if (a.verb === "draw") bar.append(button("draw", t("actions.draw"), send("draw"), "primary"));
    else if (a.verb === "take") {
      const top = pileTop(view);
      bar.append(button("take", top ? t("actions.take", { card: cardText(top) }) : t("actions.takeTop"), send("take")));
    } else if (a.verb === "discard") {
      const power = isCode(view.held) ? powerText(st.rulesCat, view.rules, view.held) : null;
      const b = button("discard", isCode(view.held) ? t("actions.discardCard", { card: cardText(view.held) }) : t("actions.discard"), send("discard"));
      if (power) b.title = t("actions.power", { power });
      bar.append(b);
      const note = powerNote(st, view);
      if (note) bar.append(note);
    } else if (a.verb === "keep") bar.append(button("keep", t("actions.keep"), send("keep")));
    else if (a.verb === "skip") bar.append(button("skip", t("actions.skip"), send("skip"), "ghost"));
    else if (a.verb === "pass") bar.append(button("pass", t("actions.pass"), send("pass"), "ghost"));
    else if (a.verb === "cambio") {
      const armed = st.cambioArmed > env.now;
      // Last: the first button is the turn's usual move (Draw), not the one that ends the
      // round (during the opening peek "Call Cambio" came first, and newcomers pressed it).
      last.push(button("cambio", armed ? t("actions.cambioArmed") : t("actions.cambio"),
        () => env.dispatch({ type: "cambio" }), armed ? "danger armed" : "danger"));
    }
  }
  bar.append(...last);
  // A power with one fixed pair (a king's switch after the look) gets a direct button.
  const slotActs = slotActions(st);
  /** @type {Map<string, import("./model.js").ParsedAction[]>} */
  const byVerb = new Map();
  for (const a of slotActs) byVerb.set(a.verb, [...(byVerb.get(a.verb) || []), a]);
  if (!st.selected.length) {
    for (const [verb, acts] of byVerb) {
      if (acts.length === 1 && acts[0].targets.length === 2) {
        const a = acts[0];
        bar.append(button(verb, `${VERB_WORDS[verb] || verb} ${a.targets.map((x) => slotName(st, x)).join(" ↔ ")}`,
          send(a.text), "primary"));
      }
    }
  }
  // Assist mode: ask the hard bot what it would do here (from your view only). (Always
  // shown, it took a row of its own that a crowded phone table has not got.) The first
  // hint after a server start takes seconds, so the button says it is working until the
  // hint (or the next move) comes.
  if (st.assist && view.actor === st.seat && env.canHint) {
    const busy = hintBusy(st);
    bar.append(h("button.ghost.hint", { type: "button", id: "hint", dataset: { key: "hint" },
      title: t("actions.hintHelp"),
      disabled: busy, "aria-busy": busy ? "true" : null,
      onclick: () => env.dispatch({ type: "ask-hint" }) },
    busy ? t("actions.thinking") : t("actions.hint")));
  }
  if (snaps(st).size && slotActs.length) {
    bar.append(button("snap-mode", st.snapMode ? t("actions.snapOn") : t("actions.snap"),
      () => env.dispatch({ type: "snap-mode" }), st.snapMode ? "snap on" : "snap"));
  }
  return bar;
}

/** The results after a reveal: scores, the match so far, what comes next.
 * @param {CardsState} st @param {CardView} view @param {ViewEnv} env */
export function resultsView(st, view, env) {
  const sum = st.summary || {};
  const n = view.grids.length;
  const totals = Array.isArray(sum.totals) ? sum.totals : null;
  const showTotals = totals && ((sum.rounds ?? 0) > 1 || sum.target);
  const rows = Array.from({ length: n }, (_, s) => s);
  const winners = new Set(view.winners || []);
  const panel = h("section.results", { id: "results", "aria-label": t("results.label"), dataset: { key: "results" } },
    h("h2", null, statusText(st, view)),
    view.end_reason ? h("p.muted", null, END_REASONS[view.end_reason] || view.end_reason) : null,
    h("table.scores", null,
      h("thead", null, h("tr", null, h("th", null, t("results.player")), h("th", null, t("results.cards")), h("th", null, t("results.round")),
        showTotals ? h("th", null, t("results.total")) : null)),
      h("tbody", null, rows.map((s) => h("tr", { class: winners.has(s) ? "win" : "" },
        h("td", null, s === st.seat ? t("results.you", { name: seatName(sum, s) }) : seatName(sum, s)),
        h("td", null, String(view.grids[s].filter((c) => c !== null).length)),
        h("td", null, view.scores ? String(view.scores[s]) : "–"),
        showTotals && totals ? h("td", null, String(totals[s] ?? "")) : null)))));
  const buttons = h("div.result-actions");
  if (sum.status === "finished") {
    if (env.isHost) {
      buttons.append(h("button.primary.big", { type: "button", id: "again", onclick: env.onAgain }, t("results.again")));
    } else {
      buttons.append(h("p.muted", null, t("results.hostAgain")));
    }
    // The replay opens on this seat's review.
    buttons.append(h("a.button", { href: replayPath(env.tableId, sum.game_no, st.seat), id: "replay-link" }, t("results.replay")));
  } else {
    buttons.append(nextRoundNote(sum));
  }
  // (append() would write a null as the text "null")
  panel.append(...[matchOver(sum, st.seat), tableHistory(sum, st.seat)].filter((x) => !!x), buttons);
  return panel;
}
