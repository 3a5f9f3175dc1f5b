// The leaderboard (/leaderboard?class=cards-2): players past provisional, best first, and
// the rules of what counts (docs/web.md, "Ratings").
import { api, errorText, byId, h } from "./common.js";
import { t } from "./i18n.js";

const app = byId("app");
const CLASSES = ["cards-2", "cards-multi", "dice-2", "dice-3"].map((c) => [c, t(`leaderboard.class.${c}`)]);
const params = new URLSearchParams(location.search);
const klass = CLASSES.some(([c]) => c === params.get("class")) ? params.get("class") : "cards-2";

/** @typedef {{ rank: number, name: string, profile: string, rating: number, uncertainty: number, games: number }} LeaderRow */

async function main() {
  byId("title").textContent = t("account.leaderboard");
  const tabs = h("nav.tabs", null, CLASSES.map(([c, label]) => h(c === klass ? "a.tab.on" : "a.tab", { href: `/leaderboard?class=${c}` }, label)));
  app.append(tabs);
  try {
    const res = await api("GET", `/api/leaderboard?class=${klass}`);
    app.append(h("section.panel", { id: "leaderboard" },
      h("p.muted", null, t("leaderboard.who", { games: res.min_games, opponents: res.min_opponents })),
      res.players.length ? h("table.games", null,
        h("thead", null, h("tr", null, ["#", t("results.player"), t("leaderboard.rating"), "±", t("leaderboard.games")].map((head) => h("th", null, head)))),
        h("tbody", null, res.players.map((/** @type {LeaderRow} */ p) => h("tr", null,
          h("td", null, String(p.rank)), h("td", null, h("a", { href: p.profile }, p.name)),
          h("td.rating", null, String(p.rating)), h("td", null, String(p.uncertainty)), h("td", null, String(p.games))))))
        : h("p.muted", { id: "leaderboard-empty" }, t("leaderboard.nobody"))),
      policy(res));
  } catch (err) {
    app.append(h("section.panel", null, h("p.muted", null, errorText(err))));
  }
}

/** What counts, in the words docs/web.md uses. @param {{ min_games: number, min_opponents: number }} res */
function policy(res) {
  return h("section.panel.rating-policy", { id: "rating-policy" },
    h("h2", null, t("leaderboard.counts")),
    h("ul", null,
      h("li", null, t("leaderboard.rule1")),
      h("li", null, t("leaderboard.rule2")),
      h("li", null, t("leaderboard.rule3")),
      h("li", null, t("leaderboard.rule4", { games: res.min_games, opponents: res.min_opponents })),
      h("li", null, t("leaderboard.rule5")),
      h("li", null, t("leaderboard.rule6"))));
}

main();
