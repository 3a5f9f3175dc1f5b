// The leaderboard (/leaderboard?class=cards-2): players past provisional, best first, and
// the rules of what counts (docs/web.md, "Ratings").
import { api, byId, h } from "./common.js";

const app = byId("app");
const CLASSES = [["cards-2", "Cards, heads-up"], ["cards-multi", "Cards, 3+ players"], ["dice-2", "Dice, 2 players"], ["dice-3", "Dice, 3 players"]];
const params = new URLSearchParams(location.search);
const klass = CLASSES.some(([c]) => c === params.get("class")) ? params.get("class") : "cards-2";

/** @typedef {{ rank: number, name: string, profile: string, rating: number, uncertainty: number, games: number }} LeaderRow */

async function main() {
  byId("title").textContent = "Leaderboard";
  const tabs = h("nav.tabs", null, CLASSES.map(([c, label]) => h(c === klass ? "a.tab.on" : "a.tab", { href: `/leaderboard?class=${c}` }, label)));
  app.append(tabs);
  try {
    const res = await api("GET", `/api/leaderboard?class=${klass}`);
    app.append(h("section.panel", { id: "leaderboard" },
      h("p.muted", null, `Players with at least ${res.min_games} rated games against ${res.min_opponents} different opponents. Rating: μ − 3σ; ± the uncertainty σ.`),
      res.players.length ? h("table.games", null,
        h("thead", null, h("tr", null, ["#", "Player", "Rating", "±", "Games"].map((t) => h("th", null, t)))),
        h("tbody", null, res.players.map((/** @type {LeaderRow} */ p) => h("tr", null,
          h("td", null, String(p.rank)), h("td", null, h("a", { href: p.profile }, p.name)),
          h("td.rating", null, String(p.rating)), h("td", null, String(p.uncertainty)), h("td", null, String(p.games))))))
        : h("p.muted", { id: "leaderboard-empty" }, "Nobody yet.")),
      policy(res));
  } catch (err) {
    app.append(h("section.panel", null, h("p.muted", null, /** @type {Error} */ (err).message)));
  }
}

/** What counts, in the words docs/web.md uses. @param {{ min_games: number, min_opponents: number }} res */
function policy(res) {
  return h("section.panel.rating-policy", { id: "rating-policy" },
    h("h2", null, "What counts"),
    h("ul", null,
      h("li", null, "Only Play now's rated games count. A rated game counts only when every person at the table made moves of their own: a game against a seat that nobody came to (its bot played it from the first move) is not rated, for anyone."),
      h("li", null, "Games between identities made on the same network (one IPv4 address, one IPv6 /64) are not rated: one person's spare identities cannot lift a rating."),
      h("li", null, "Play now seats only players whose page is open; a player who does not come to the table within seconds is replaced by a bot."),
      h("li", null, `A new player is provisional, and not listed here, until they have ${res.min_games} rated games that counted, against ${res.min_opponents} different opponents (bots count, each difficulty once).`),
      h("li", null, "A provisional player's results move nobody else's rating: a newcomer's game against an established player moves the newcomer's rating only, and a game between two newcomers moves neither. Games against bots always count."),
      h("li", null, "Leaving a rated game you have played in, for longer than the away timeout, counts as a loss.")));
}

main();
