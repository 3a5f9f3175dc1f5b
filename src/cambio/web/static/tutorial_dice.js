// The dice game's short guided game (issue 22, item 6): what to do next, and the arrow to
// push (outlined on the board). The tutorial table (server/tutorial.py) is a two-player
// quick setup from a fixed seed against the Random bot, so every newcomer starts from the
// same board; the board is public, so the advice is computed from the view itself: take a
// win, stop the other player's, else the push that gives you the most dice in one line.
import { applyPush, cellName } from "./board.js";

/** The winning lines of an n×n board with lines of n (two players): rows, columns, the two
 * long diagonals, as lists of cells. */
function lines(n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    out.push(Array.from({ length: n }, (_, c) => i * n + c));
    out.push(Array.from({ length: n }, (_, r) => r * n + i));
  }
  out.push(Array.from({ length: n }, (_, i) => i * n + i));
  out.push(Array.from({ length: n }, (_, i) => i * n + (n - 1 - i)));
  return out;
}

/** The most dice of `seat` in one line, and that line. */
function best(owners, n, seat) {
  let top = { count: 0, line: null };
  for (const line of lines(n)) {
    const count = line.filter((c) => owners[c] === seat).length;
    if (count > top.count) top = { count, line };
  }
  return top;
}

function lineName(line, n) {
  const [a, b] = [line[0], line[line.length - 1]];
  if (Math.floor(a / n) === Math.floor(b / n)) return `row ${Math.floor(a / n) + 1}`;
  if (a % n === b % n) return `column ${String.fromCharCode(65 + (a % n))}`;
  return `the diagonal ${cellName(a, n)}–${cellName(b, n)}`;
}

/** The push to suggest: {move, count, line, wins, blocks}. */
export function suggestPush(b, seat, legal) {
  const other = (seat + 1) % b.players;
  let pick = null;
  for (const move of legal) {
    if (!/^[a-h][1-8][<>^v]$/.test(move)) continue;
    const after = { n: b.n, owners: [...b.owners], faces: null };
    applyPush(after, move, seat, b.symbols);
    const mine = best(after.owners, b.n, seat);
    const theirs = best(after.owners, b.n, other);
    const score = (mine.count >= b.k ? 1000 : 0) - (theirs.count >= b.k ? 500 : 0)
      - (theirs.count === b.k - 1 ? 50 : 0) + mine.count * 10 - theirs.count;
    if (!pick || score > pick.score) {
      pick = { move, score, count: mine.count, line: mine.line, wins: mine.count >= b.k };
    }
  }
  return pick;
}

/** The tip for the board now: {text, marks} (marks: the moves whose arrows to outline). */
export function diceCoach(ui, b, mine) {
  const me = ui.seat;
  const tip = (text, ...marks) => ({ text, marks: new Set(marks) });
  const other = ui.name((me + 1) % b.players);
  if (b.over) {
    const won = (b.winners || []).includes(me);
    return tip(`${won ? "You made a line: you win!" : "The game is over."} Replay the tutorial, `
      + "or play for real, from the lobby.");
  }
  if (!mine) return tip(`${other} is pushing. Their last push is outlined on the board.`);
  const coarse = matchMedia("(pointer: coarse)").matches;
  if (ui.preview && b.legal.includes(ui.preview)) return tip("The dashed line moves one step along. Tap the same arrow again to push.", ui.preview);
  const pick = suggestPush(b, me, b.legal);
  if (!pick) return tip("No push is legal: press Pass.");
  const how = coarse ? "tap the outlined arrow twice" : "click the outlined arrow";
  const mineNow = b.owners.filter((o) => o === me).length;
  if (!ui.log.some((ev) => ev && ev.seat === me)) {
    return tip(`Make a line of ${b.k} dice of your colour (you have ${mineNow}): a row, a column or a `
      + `long diagonal. A push slides a line one step: ${how}.`, pick.move);
  }
  const where = pick.line ? lineName(pick.line, b.n) : "a line";
  if (pick.wins) return tip(`This push completes ${where}: ${how} to win!`, pick.move);
  const threat = best(b.owners, b.n, (me + 1) % b.players);
  if (threat.count >= b.k - 1) {
    return tip(`${other} has ${threat.count} in ${lineName(threat.line, b.n)}: push to break it. `
      + `A good one: ${how}.`, pick.move);
  }
  return tip(`A good push gives you ${pick.count} in ${where}: ${how}. A die may push yours and `
    + `the neutral ones off the far end, never ${other}'s.`, pick.move);
}
