// Sound: optional and off by default (a table in a shared room must stay quiet). Short tones made with WebAudio
// (no recorded files, so no asset licence): your turn, a snap right or wrong, Cambio called.
// The choice is kept in this browser (localStorage "cambio:sound"). Each cue played is also
// noted in window.__cambioSounds (the browser tests read it: headless, nobody hears).
import { h } from "./common.js";
import { t } from "./i18n.js";

const KEY = "cambio:sound";

// name -> notes [frequency Hz, start s, length s, wave]
/** @type {Record<string, [number, number, number, OscillatorType][]>} */
const CUES = {
  turn: [[660, 0, 0.12, "sine"], [880, 0.13, 0.18, "sine"]],
  "snap-right": [[523, 0, 0.09, "triangle"], [659, 0.09, 0.09, "triangle"], [784, 0.18, 0.2, "triangle"]],
  "snap-wrong": [[233, 0, 0.18, "square"], [175, 0.16, 0.3, "square"]],
  cambio: [[392, 0, 0.14, "sawtooth"], [523, 0.15, 0.14, "sawtooth"], [659, 0.3, 0.32, "sawtooth"]],
};

/** @type {AudioContext | null} */
let audio = null;

export function soundOn() {
  try { return localStorage.getItem(KEY) === "1"; } catch { return false; }
}

/** @param {boolean} on */
function setSound(on) {
  try { localStorage.setItem(KEY, on ? "1" : "0"); } catch { /* private mode */ }
}

function context() {
  if (!audio) {
    const Ctx = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Ctx) return null;
    audio = new Ctx();
  }
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

/** Play a cue by name, if sound is on.
 * @param {string} name */
export function play(name) {
  if (!soundOn() || !CUES[name]) return;
  const w = /** @type {any} */ (window);
  (w.__cambioSounds = w.__cambioSounds || []).push(name);
  const ac = context();
  if (!ac) return;
  const t0 = ac.currentTime + 0.02;
  for (const [freq, start, length, wave] of CUES[name]) {
    const osc = ac.createOscillator();
    const gain = ac.createGain();
    osc.type = wave;
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, t0 + start);
    gain.gain.exponentialRampToValueAtTime(wave === "sine" || wave === "triangle" ? 0.25 : 0.08, t0 + start + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, t0 + start + length);
    osc.connect(gain).connect(ac.destination);
    osc.start(t0 + start);
    osc.stop(t0 + start + length + 0.02);
  }
}

/** The cues of one update: your turn starting, a snap's verdict, a Cambio call. */
/** @typedef {{ actor?: number | null, phase: string, legal: string[], winners?: number[] | null }} Seen */

/** @param {{ action?: string, right?: boolean } | null | undefined} event @param {Seen | null} prev
 * @param {Seen} view @param {number | null} seat @returns {string[]} */
export function cuesOf(event, prev, view, seat) {
  const out = [];
  const action = event && typeof event.action === "string" ? event.action : "";
  if (action.startsWith("snap ")) out.push(event && event.right ? "snap-right" : "snap-wrong");
  if (action === "cambio") out.push("cambio");
  const mine = (/** @type {Seen | null} */ v) => !!v && seat !== null && v.actor === seat && v.phase !== "round_over"
    && v.legal.some((a) => !a.startsWith("snap "));
  if (mine(view) && !mine(prev)) out.push("turn");
  return out;
}

/** Play the cues of one update. @param {Parameters<typeof cuesOf>[0]} event
 * @param {Seen | null} prev @param {Seen} view @param {number | null} seat */
export function playCues(event, prev, view, seat) {
  for (const name of cuesOf(event, prev, view, seat)) play(name);
}

/** The dice table's cues: your move starting, and a line that ends the game
 * (the snap's "right" tune for your line, its "wrong" one for another's). */
/** @param {Seen | null} prev @param {Seen} view @param {number | null} seat */
export function playBoardCues(prev, view, seat) {
  const mine = (/** @type {Seen | null} */ v) => !!v && seat !== null && v.actor === seat && v.phase !== "over"
    && Array.isArray(v.legal) && v.legal.length > 0;
  if (mine(view) && !mine(prev)) play("turn");
  if (view && view.phase === "over" && !(prev && prev.phase === "over") && (view.winners || []).length) {
    play((view.winners || []).includes(/** @type {number} */ (seat)) ? "snap-right" : "snap-wrong");
  }
}

/** The top bar's switch: "♪ off" / "♪ on". */
export function soundToggle() {
  const on = soundOn();
  return h("button.ghost.sound-toggle", {
    type: "button", id: "sound", "aria-pressed": on ? "true" : "false",
    title: t("sound.help"), "aria-label": on ? t("sound.on") : t("sound.off"),
    onclick: (/** @type {MouseEvent} */ e) => {
      const now = !soundOn();
      setSound(now);
      const b = /** @type {HTMLElement} */ (e.currentTarget);
      b.setAttribute("aria-pressed", now ? "true" : "false");
      b.setAttribute("aria-label", now ? t("sound.on") : t("sound.off"));
      b.textContent = `♪ ${now ? t("sound.onShort") : t("sound.offShort")}`;
      if (now) context();                     // a tap: the browser lets audio start now
    },
  }, `♪ ${on ? t("sound.onShort") : t("sound.offShort")}`);
}
