// Drawing cards: a code ("KD", "TH", "XB") becomes a face; "?" a back; null an empty slot.
import { h } from "./common.js";
import { t } from "./i18n.js";

const SUITS = /** @type {Record<string, string>} */ ({ C: "♣", D: "♦", H: "♥", S: "♠" });
const SUIT_NAMES = /** @type {Record<string, string>} */ ({ C: "clubs", D: "diamonds", H: "hearts", S: "spades" });
const RANK_NAMES = /** @type {Record<string, string>} */ ({
  A: "ace", T: "10", J: "jack", Q: "queen", K: "king",
});
/** @param {string} rank */
const rankName = (rank) => (RANK_NAMES[rank] ? t(`card.rank.${RANK_NAMES[rank]}`) : rank);

/** A card code ("KD", "TH", "XB"), not a back or a gap.
 * @param {unknown} code @returns {code is string} */
export function isCode(code) {
  return typeof code === "string" && /^([A2-9TJQK][CDHS]|X[BR])$/.test(code);
}

/** @param {string} code */
export function isRed(code) {
  return code[0] === "X" ? code[1] === "R" : code[1] === "D" || code[1] === "H";
}

/** The short printed form: "K♦", "10♥", "Joker".
 * @param {unknown} code */
export function cardText(code) {
  if (!isCode(code)) return "?";
  if (code[0] === "X") return code[1] === "R" ? t("card.redJoker") : t("card.blackJoker");
  const rank = code[0] === "T" ? "10" : code[0];
  return rank + SUITS[code[1]];
}

/** The spoken form for screen readers: "king of diamonds".
 * @param {unknown} code */
export function cardName(code) {
  if (!isCode(code)) return t("card.faceDown");
  if (code[0] === "X") return code[1] === "R" ? t("card.redJoker") : t("card.blackJoker");
  return t("card.name", { rank: rankName(code[0]), suit: t(`card.suit.${SUIT_NAMES[code[1]]}`) });
}

/** The inside of a face-up card (rank in the corners, a big pip or letter in the middle).
 * @param {string} code */
export function faceContent(code) {
  if (code[0] === "X") {
    return [
      h("span.corner.tl", null, "★"),
      h("span.pip.joker", null, t("card.joker")),
      h("span.corner.br", null, "★"),
    ];
  }
  const rank = code[0] === "T" ? "10" : code[0];
  const suit = SUITS[code[1]];
  const center = "JQK".includes(code[0]) ? `${code[0]}${suit}` : suit;
  return [
    h("span.corner.tl", null, h("b", null, rank), h("i", null, suit)),
    h("span.pip", { class: "JQK".includes(code[0]) ? "court" : "" }, center),
    h("span.corner.br", null, h("b", null, rank), h("i", null, suit)),
  ];
}

/**
 * A card element. `shown` is the code to show (or null/"?" for a back, or "empty").
 * The element carries data-code only when it shows a face.
 */
/** @param {string | null} shown
 * @param {{ button?: boolean, small?: boolean, label?: string }} [opts] @returns {HTMLElement} */
export function cardEl(shown, opts = {}) {
  const node = opts.button ? document.createElement("button") : document.createElement("div");
  node.className = "card";
  if (node instanceof HTMLButtonElement) node.type = "button";
  if (opts.small) node.classList.add("small");
  if (shown === "empty") {
    node.classList.add("empty");
    node.setAttribute("aria-label", opts.label ? t("card.labelEmpty", { label: opts.label }) : t("card.emptySlot"));
    return node;
  }
  if (isCode(shown)) {
    node.classList.add("up");
    if (isRed(shown)) node.classList.add("red");
    if (shown[0] === "X") node.classList.add("joker");
    node.dataset.code = shown;
    node.append(...faceContent(shown));
    node.setAttribute("aria-label", (opts.label ? `${opts.label}: ` : "") + cardName(shown));
  } else {
    node.classList.add("down");
    node.setAttribute("aria-label", (opts.label ? `${opts.label}: ` : "") + t("card.faceDown"));
  }
  return node;
}

/** An inline card mention for text (the log): "K♦" in the card's colour.
 * @param {unknown} code */
export function cardSpan(code) {
  if (!isCode(code)) return h("span.mini.unknown", null, "?");
  return h("span.mini", { class: isRed(code) ? "red" : "", dataset: { code } }, cardText(code));
}
