// The leaderboard (/leaderboard?class=cards-2): players with enough rated games, best first.
import { api, h } from "./common.js";

const app = document.getElementById("app");
const CLASSES = [["cards-2", "Cards, heads-up"], ["cards-multi", "Cards, 3+ players"], ["dice-2", "Dice, 2 players"], ["dice-3", "Dice, 3 players"]];
const params = new URLSearchParams(location.search);
const klass = CLASSES.some(([c]) => c === params.get("class")) ? params.get("class") : "cards-2";

async function main() {
  document.getElementById("title").textContent = "Leaderboard";
  const tabs = h("nav.tabs", null, CLASSES.map(([c, label]) => h(c === klass ? "a.tab.on" : "a.tab", { href: `/leaderboard?class=${c}` }, label)));
  app.append(tabs);
  try {
    const res = await api("GET", `/api/leaderboard?class=${klass}`);
    app.append(h("section.panel", { id: "leaderboard" },
      h("p.muted", null, `Players with at least ${res.min_games} rated games. Rating: μ − 3σ; ± the uncertainty σ.`),
      res.players.length ? h("table.games", null,
        h("thead", null, h("tr", null, ["#", "Player", "Rating", "±", "Games"].map((t) => h("th", null, t)))),
        h("tbody", null, res.players.map((p) => h("tr", null,
          h("td", null, String(p.rank)), h("td", null, h("a", { href: p.profile }, p.name)),
          h("td.rating", null, String(p.rating)), h("td", null, String(p.uncertainty)), h("td", null, String(p.games))))))
        : h("p.muted", { id: "leaderboard-empty" }, "Nobody yet.")));
  } catch (err) {
    app.append(h("section.panel", null, h("p.muted", null, err.message)));
  }
}

main();
