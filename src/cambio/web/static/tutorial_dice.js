// The dice game's short guided game: what to do next, and the arrow to push (outlined on
// the board), so a newcomer learns by playing. The tutorial table (server/tutorial.py) is a
// two-player quick setup from a fixed seed against the Random bot, so every newcomer starts
// from the same board. The advice is the engine's (the view's "coach", for the seat to
// move: games/board_coach.py); this module only words it. It imports nothing of board.js
// nor board/, which import it (the cell names are from here).

/** A cell's name: its column letter and row number (`c3`). */
/** @param {number} cell @param {number} n */
export function cellName(cell, n) {
  return `${String.fromCharCode(97 + (cell % n))}${Math.floor(cell / n) + 1}`;
}

/** @param {number[]} line @param {number} n */
function lineName(line, n) {
  const [a, b] = [line[0], line[line.length - 1]];
  if (Math.floor(a / n) === Math.floor(b / n)) return `row ${Math.floor(a / n) + 1}`;
  if (a % n === b % n) return `column ${String.fromCharCode(65 + (a % n))}`;
  return `the diagonal ${cellName(a, n)}–${cellName(b, n)}`;
}

/**
 * The tip for the board now: {text, marks} (marks: the moves whose arrows to outline).
 * @param {{ seat: number, preview: string | null, log: { seat?: number }[], name: (s: number) => string }} ui
 * @param {import("./board/model.js").Board} b @param {boolean} mine
 */
export function diceCoach(ui, b, mine) {
  const me = ui.seat;
  const tip = (/** @type {string} */ text, /** @type {string[]} */ ...marks) => ({ text, marks: new Set(marks) });
  const other = ui.name((me + 1) % b.players);
  if (b.over) {
    const won = (b.winners || []).includes(me);
    return tip(`${won ? "You made a line: you win!" : "The game is over."} Replay the tutorial, `
      + "or play for real, from the lobby.");
  }
  if (!mine) return tip(`${other} is pushing. Their last push is outlined on the board.`);
  const coarse = matchMedia("(pointer: coarse)").matches;
  if (ui.preview && b.legal.includes(ui.preview)) return tip("The dashed line moves one step along. Tap the same arrow again to push.", ui.preview);
  const pick = b.coach;
  if (!pick) return tip("No push is legal: press Pass.");
  const how = coarse ? "tap the outlined arrow twice" : "click the outlined arrow";
  const mineNow = b.owners.filter((o) => o === me).length;
  if (!ui.log.some((ev) => ev && ev.seat === me)) {
    return tip(`Make a line of ${b.k} dice of your colour (you have ${mineNow}): a row, a column or a `
      + `long diagonal. A push slides a line one step: ${how}.`, pick.move);
  }
  const where = pick.line ? lineName(pick.line, b.n) : "a line";
  if (pick.wins) return tip(`This push completes ${where}: ${how} to win!`, pick.move);
  const threat = pick.threat;
  if (threat.count >= b.k - 1) {
    return tip(`${other} has ${threat.count} in ${lineName(threat.line, b.n)}: push to break it. `
      + `A good one: ${how}.`, pick.move);
  }
  return tip(`A good push gives you ${pick.count} in ${where}: ${how}. A die may push yours and `
    + `the neutral ones off the far end, never ${other}'s.`, pick.move);
}
