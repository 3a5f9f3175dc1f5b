// @ts-check
// The replay viewer's review panel: one seat's decisions of the round, labelled, beside the
// table; the chance of winning over the round as a line; buttons to the three costliest
// decisions; and, at each decision, the better move drawn on the table. While the server
// computes the review (202) the panel shows the queue's progress and asks again, less
// often as time goes on. The server decides who may see a seat's review (docs/review.md);
// the panel offers only the seats it would show and says so plainly when it refuses.
import { errorText, getToken, h } from "../common.js";
import { t } from "../i18n.js";
import {
  LABELS, SYMBOLS, chartGeometry, costliest, decisionsByStep, describeMove, pollDelay,
  shownPoints,
} from "./model.js";

/** @typedef {import("./model.js").Review} Review */
/** @typedef {import("./model.js").Decision} Decision */
/** @typedef {import("./model.js").Label} Label */

const SVG = "http://www.w3.org/2000/svg";

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @param {...(Node | string)} children
 * @returns {SVGElement}
 */
function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  node.append(...children);
  return /** @type {SVGElement} */ (node);
}

/**
 * @typedef {object} PanelOptions
 * @property {string} tableId
 * @property {number | null} game  the game's number at its table (null: its last)
 * @property {number} round
 * @property {number[]} seats  the seats offered, the first shown first
 * @property {string[]} names
 * @property {number} lastStep  the round's last frame
 * @property {(step: number) => void} go  show a frame of the replay
 */

/**
 * A label with its sign, so it reads without colour.
 * @param {Label} label
 * @returns {HTMLElement}
 */
export function labelTag(label) {
  return h(`span.review-label.lbl-${label}`, { dataset: { label } },
    h("span.sign", { "aria-hidden": "true" }, SYMBOLS[label]), " ", t(`review.label.${label}`));
}

/**
 * The review panel, empty until {@link ReviewPanel.load}; {@link ReviewPanel.step} after
 * each frame drawn.
 */
export class ReviewPanel {
  /** @param {PanelOptions} opts */
  constructor(opts) {
    this.opts = opts;
    /** @type {Review | null} */
    this.review = null;
    /** @type {Map<number, Decision>} */
    this.byStep = new Map();
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    this.seat = opts.seats[0];
    /** Counts the loads: an answer to an earlier one (another seat) is dropped. */
    this.generation = 0;
    this.current = 0;
    /** @type {HTMLElement | null} */
    this.board = null;
    this.body = h("div.review-body", { id: "review-body", "aria-live": "polite" });
    /** The decision at the frame shown, for the replay to place above its table. */
    this.now = h("div.review-now", { id: "review-now", "aria-live": "polite" });
    /** @type {HTMLElement | null} */
    this.list = null;
    const picker = opts.seats.length > 1 ? h("label.field.inline", { for: "review-seat" },
      h("span", null, t("review.seat")),
      h("select", {
        id: "review-seat",
        onchange: (/** @type {Event} */ e) => {
          this.seat = Number(/** @type {HTMLSelectElement} */ (e.target).value);
          this.load();
        },
      }, opts.seats.map((s) => h("option", { value: s, selected: s === this.seat },
        opts.names[s] ?? String(s + 1))))) : null;
    this.node = h("section.panel.review", { id: "review" },
      h("div.review-head", null, h("h2", null, t("review.title")), picker), this.body);
  }

  /** Ask for the seat's review, again and again while it is computed. */
  async load() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.review = null;
    this.byStep = new Map();
    this.list = null;
    this.now.replaceChildren();
    this.show(h("p.muted", null, t("review.loading")));
    await this.ask(0, ++this.generation);
  }

  /**
   * @param {number} attempt
   * @param {number} generation  the load it belongs to (the picker may change meanwhile)
   */
  async ask(attempt, generation) {
    const { tableId, game, round } = this.opts;
    const seat = this.seat;
    const q = new URLSearchParams({ round: String(round) });
    if (game !== null) q.set("game", String(game));
    const path = `/api/tables/${encodeURIComponent(tableId)}/seats/${seat}/review?${q}`;
    const token = getToken(tableId);
    /** @type {Response} */
    let res;
    /** @type {any} */
    let body;
    try {
      res = await fetch(path, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
      body = await res.json();
    } catch {
      if (generation === this.generation) this.show(this.problem(t("review.unreachable")));
      return;
    }
    if (generation !== this.generation) return;
    if (res.status === 202) {
      this.show(this.progress(body));
      const wait = pollDelay(attempt, Number(res.headers.get("Retry-After")));
      this.timer = setTimeout(() => this.ask(attempt + 1, generation), wait);
    } else if (res.status === 403) {
      this.show(this.problem(t("review.forbidden"), "review-forbidden"));
    } else if (!res.ok) {
      this.show(this.problem(errorText(body?.error ?? { code: String(res.status) })));
    } else if (body.status === "failed") {
      this.show(this.problem(t("review.failed", { reason: String(body.reason ?? "") })));
    } else {
      this.done(/** @type {Review} */ (body.review));
    }
  }

  /** @param {Node} node */
  show(node) {
    this.body.replaceChildren(node);
    this.node.dataset.state = node instanceof HTMLElement ? node.dataset.state ?? "" : "";
  }

  /**
   * @param {string} text
   * @param {string} [id]
   * @returns {HTMLElement}
   */
  problem(text, id = "review-problem") {
    return h("p.review-problem", { id, dataset: { state: "problem" } }, text);
  }

  /**
   * The queue's progress while the review is computed.
   * @param {{status: string, ahead?: number, workers?: number}} body
   * @returns {HTMLElement}
   */
  progress(body) {
    const ahead = body.ahead ?? 0;
    const text = body.status === "running" ? t("review.running")
      : body.workers === 0 ? t("review.idle")
        : ahead > 0 ? t("review.queued", { count: ahead }) : t("review.next");
    return h("div.review-progress", { id: "review-progress", dataset: { state: "progress", status: body.status } },
      h("progress", { "aria-label": t("review.title") }),
      h("p.muted", null, text),
      h("p.muted.small", null, t("review.updates")));
  }

  /** @param {Review} review */
  done(review) {
    this.review = review;
    this.byStep = decisionsByStep(review);
    const counts = LABELS.filter((l) => review.labels[l]).map((l) => h("li", null, labelTag(l), ` ${review.labels[l]}`));
    const summary = h("div.review-summary", null,
      h("p", { id: "review-accuracy" }, review.accuracy === null ? t("review.noDecisions")
        : t("review.accuracy", { accuracy: Math.round(review.accuracy * 10) / 10 })),
      h("ul.review-counts", null, counts),
      review.slips ? h("p.muted", null, t("review.slips", { count: review.slips })) : null);
    const worst = costliest(review);
    const jumps = worst.length ? h("div.review-jumps", { id: "review-jumps" },
      h("span", null, t("review.costliest")),
      worst.map((d, i) => h("button.jump", {
        type: "button", dataset: { step: d.step },
        "aria-label": t("review.jump", { rank: i + 1, move: d.step + 1 }),
        onclick: () => this.jump(d.step),
      }, h("span.sign", { "aria-hidden": "true" }, SYMBOLS[d.label]), ` ${t("review.moveNo", { move: d.step + 1 })}`))) : null;
    this.chart = this.drawChart(review);
    this.list = h("ol.review-moves", { id: "review-moves" }, review.decisions.map((d) => h("li", {
      dataset: { step: d.step, label: d.label },
    }, h("button.review-move", { type: "button", onclick: () => this.jump(d.step) },
      h("span.step", null, String(d.step + 1)), labelTag(d.label),
      h("span.played", null, this.moveText(d.chosen.action)),
      d.loss > 0 ? h("span.loss", null, t("review.loss", { points: shownPoints(d.loss) })) : null))));
    const body = h("div.review-done", { dataset: { state: "done" } }, summary, this.chart, jumps, this.list);
    this.show(body);
    this.step(this.current, this.board);
  }

  /**
   * Show a decision's frame; on a phone, where the panel is under the table, scroll back up
   * to the decision's words and the table.
   * @param {number} step
   */
  jump(step) {
    this.opts.go(step);
    this.now.scrollIntoView?.({ block: "nearest" });
  }

  /**
   * The chance of winning over the round, with a dot per decision coloured and shaped by
   * its label, a dashed line at even chances and a cursor at the frame shown.
   * @param {Review} review
   * @returns {SVGElement}
   */
  drawChart(review) {
    const g = chartGeometry(review, this.opts.lastStep);
    this.geometry = g;
    this.cursor = svg("line", { class: "cursor", x1: 0, x2: 0, y1: 0, y2: g.height });
    const first = review.series[0];
    const last = review.series[review.series.length - 1];
    const label = first === undefined || last === undefined ? t("review.chart")
      : t("review.chartRange", { from: Math.round(first * 100), to: Math.round(last * 100) });
    return svg("svg", {
      class: "review-chart", id: "review-chart", viewBox: `0 0 ${g.width} ${g.height}`,
      preserveAspectRatio: "none", role: "img", "aria-label": label,
    },
    svg("title", {}, label),
    svg("line", { class: "even", x1: 0, x2: g.width, y1: g.even, y2: g.even }),
    svg("path", { class: "line", d: g.path }),
    this.cursor,
    ...g.points.map((p) => svg("circle", {
      class: `dot lbl-${p.label}`, cx: p.x, cy: p.y, r: p.label === "best" || p.label === "good" ? 2.5 : 4,
      "data-step": p.step,
    }, svg("title", {}, `${p.step + 1}: ${Math.round(p.win * 100)}% · ${t(`review.label.${p.label}`)}`))));
  }

  /**
   * A move as words for this seat.
   * @param {string} action
   * @returns {string}
   */
  moveText(action) {
    const m = describeMove(action, this.seat, this.opts.names);
    return t(m.key, m.params);
  }

  /**
   * After a frame is drawn: the decision made there (if the seat made one), its better
   * move marked on the table, the chart's cursor and the list's current row.
   * @param {number} step
   * @param {HTMLElement | null} board  the replay's table
   */
  step(step, board) {
    this.current = step;
    this.board = board;
    if (!this.review || !this.list) return;
    const d = this.byStep.get(step);
    for (const li of this.list.children) {
      const here = /** @type {HTMLElement} */ (li).dataset.step === String(step);
      if (here) li.setAttribute("aria-current", "step");
      else li.removeAttribute("aria-current");
    }
    if (this.cursor && this.geometry) {
      const x = this.geometry.x(step);
      this.cursor.setAttribute("x1", String(x));
      this.cursor.setAttribute("x2", String(x));
    }
    if (!d) {
      this.now.replaceChildren(h("p.muted", null, t("review.noDecisionHere", { name: this.opts.names[this.seat] ?? "" })));
      return;
    }
    const lines = [
      h("p", null, h("strong", null, t("review.moveNo", { move: d.step + 1 })), " ", labelTag(d.label), " ", t("review.played", { move: this.moveText(d.chosen.action) }),
        d.loss > 0 ? ` ${t("review.loss", { points: shownPoints(d.loss) })}` : null),
    ];
    if (d.best.action !== d.chosen.action && d.loss > 0) {
      lines.push(h("p.better", { id: "review-better" }, t("review.better", { move: this.moveText(d.best.action) })));
      if (board) mark(board, describeMove(d.best.action, this.seat, this.opts.names));
    }
    for (const slip of d.slips) lines.push(h("p.muted", null, t("review.slip", { slip })));
    this.now.replaceChildren(...lines);
  }
}

/**
 * Mark the better move's places on the drawn table: the slots, the pile or the held card,
 * or the push (its arrow and the die it enters at).
 * @param {HTMLElement} board
 * @param {import("./model.js").Move} move
 */
function mark(board, move) {
  /** @type {Element[]} */
  const found = [];
  for (const addr of move.slots) found.push(...board.querySelectorAll(`[data-addr="${addr}"]`));
  if (move.place === "pile") found.push(...board.querySelectorAll(".pile-box .card"));
  if (move.place === "held") found.push(...board.querySelectorAll(".held-box .card"));
  if (move.cell) {
    // The push's arrow as well as the die it enters at: the arrows of a replay are all
    // drawn disabled, so the ring is what tells this one apart.
    found.push(...board.querySelectorAll(`.die[data-cell="${move.cell}"]`));
    found.push(...board.querySelectorAll(`.arrow[data-move="${move.params.move}"]`));
  }
  for (const node of found) node.classList.add("better");
}
