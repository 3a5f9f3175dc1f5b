// The banner over the table (a snap's result, a Cambio call): one at a time, each shown for
// BANNER_HOLD_MS at least, so a quick second one (the other snapper of a race) does not wipe
// the first before it can be read. Pure: the time is an argument.

/** @typedef {import("./model.js").CardsState} CardsState */

export const BANNER_MS = 2600;
export const BANNER_HOLD_MS = 1200;   // a banner stays this long at least before the next replaces it

/**
 * Show a banner now, or queue it behind the one still in its hold time.
 * @param {CardsState} st @param {string} text @param {string} kind @param {number} now
 * @returns {CardsState}
 */
export function showBanner(st, text, kind, now) {
  if (st.banner && now - st.banner.start < BANNER_HOLD_MS) {
    return { ...st, bannerQueue: [...st.bannerQueue, { text, kind }] };
  }
  return { ...st, banner: { text, kind, start: now, until: now + BANNER_MS } };
}

/**
 * The shown banner's time is up (or its hold time, with another waiting): the next one.
 * @param {CardsState} st @param {number} now @returns {CardsState}
 */
export function advanceBanner(st, now) {
  const b = st.banner;
  if (!b || (b.until > now && !(st.bannerQueue.length && now - b.start >= BANNER_HOLD_MS))) return st;
  const [next, ...rest] = st.bannerQueue;
  return { ...st, banner: next ? { ...next, start: now, until: now + BANNER_MS } : null, bannerQueue: rest };
}

/** When the banner next changes (Infinity: never). @param {CardsState} st */
export function bannerWake(st) {
  if (!st.banner) return Infinity;
  return st.bannerQueue.length ? st.banner.start + BANNER_HOLD_MS : st.banner.until;
}
