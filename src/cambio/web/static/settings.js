// @ts-check
// The reader's settings on every page: the language, the theme (light, dark, or the
// system's) and four-colour suits for colour-blind players, in a footer, each remembered in
// this browser. The theme and suits are attributes on <html> that app.css reads, set as soon
// as this module runs; without a choice, the theme follows prefers-color-scheme in CSS.
import { LANGUAGES, chooseLanguage, language, t } from "./i18n.js";

const THEME_KEY = "cambio.theme";
const SUITS_KEY = "cambio.suits";
const THEMES = /** @type {const} */ (["auto", "light", "dark"]);

/** @param {string} key @returns {string | null} */
function stored(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}
/** @param {string} key @param {string} value */
function store(key, value) {
  try { localStorage.setItem(key, value); } catch { /* the choice lasts this page */ }
}

/** Apply the remembered theme and suits to the page. */
export function applySettings() {
  const root = document.documentElement;
  const theme = stored(THEME_KEY);
  if (theme === "light" || theme === "dark") root.dataset.theme = theme;
  else delete root.dataset.theme;
  if (stored(SUITS_KEY) === "four") root.dataset.suits = "four";
  else delete root.dataset.suits;
}

/** The language names, each in its own language (a reader finds theirs whatever is shown). */
const NATIVE = /** @type {Record<string, string>} */ ({
  en: "English", de: "Deutsch", es: "Español", fr: "Français",
});

/**
 * A labelled select of the footer.
 * @param {string} id @param {string} label @param {[string, string][]} options
 * @param {string} value @param {(value: string) => void} onchange
 */
function choice(id, label, options, value, onchange) {
  const select = document.createElement("select");
  select.id = id;
  for (const [v, text] of options) {
    const option = new Option(text, v, false, v === value);
    select.append(option);
  }
  select.addEventListener("change", () => onchange(select.value));
  const wrap = document.createElement("label");
  wrap.className = "setting";
  wrap.htmlFor = id;
  const span = document.createElement("span");
  span.textContent = label;
  wrap.append(span, select);
  return wrap;
}

/** The footer with the three settings. @returns {HTMLElement} */
export function settingsFooter() {
  const footer = document.createElement("footer");
  footer.className = "site-settings";
  footer.setAttribute("aria-label", t("settings.label"));
  footer.append(
    choice("setting-lang", t("settings.language"),
      LANGUAGES.map((code) => [code, NATIVE[code]]), language(), async (code) => {
        await chooseLanguage(/** @type {import("./i18n.js").Language} */ (code));
        location.reload();               // every page builds its words once, at load
      }),
    choice("setting-theme", t("settings.theme"),
      THEMES.map((name) => [name, t(`settings.theme.${name}`)]), stored(THEME_KEY) || "auto",
      (theme) => { store(THEME_KEY, theme); applySettings(); }),
    choice("setting-suits", t("settings.suits"),
      [["two", t("settings.suits.two")], ["four", t("settings.suits.four")]],
      stored(SUITS_KEY) === "four" ? "four" : "two",
      (suits) => { store(SUITS_KEY, suits); applySettings(); }),
  );
  return footer;
}

applySettings();
if (!document.querySelector(".site-settings")) document.body.append(settingsFooter());
