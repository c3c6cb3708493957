// Plays the zoo web board in headless Chromium: the page loads, a move is
// made by clicking, the engine answers, undo takes the turn back, a FEN is
// set and a game finished by dragging a piece, the analysis streams, the tables
// give a value; checkers moves on the SVG board (a capture chosen among
// two), the engine at a named level, a game saved as PDN and loaded back,
// a move list pasted, the prove button; a screenshot of each game's board.
// Usage: node browser.mjs URL SCREENSHOT_DIR (crates/web/tests/browser.rs).
import { chromium } from "playwright-core";

const [url, shots] = process.argv.slice(2);
const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";
const browser = await chromium.launch({
  executablePath,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const fail = (msg) => { console.error("FAIL: " + msg); process.exitCode = 1; };
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  page.on("pageerror", (e) => fail("page error: " + e.message));
  await page.goto(url);
  await page.waitForSelector("#board rect.sq");
  const movesText = () => page.$eval("#moves", (e) => e.textContent.trim());

  // Jungle Checkers: White's dog c2 to c3 by two clicks; the engine (Black)
  // answers within its time per move.
  await page.selectOption("#game", "jungle-checkers");
  await page.waitForSelector('#board rect[data-sq="d7"].den');
  await page.selectOption("#movetime", "200");
  await page.click('#board g.piece[data-sq="c2"]');
  await page.waitForSelector("#board circle.target");
  await page.click('#board rect[data-sq="c3"]');
  await page.waitForFunction(() => document.querySelectorAll("#moves span").length === 2, null, { timeout: 10000 });
  console.log("moves after the engine's reply: " + (await movesText()));
  if (!(await movesText()).startsWith("Dc3")) fail("the first move is not Dc3");
  await page.screenshot({ path: `${shots}/jungle-checkers.png` });

  // Undo takes back the engine's reply and the move: White to move again.
  await page.click("#undo");
  await page.waitForFunction(() => document.querySelectorAll("#moves span").length === 0, null, { timeout: 5000 });
  if (!(await page.textContent("#message")).includes("white to move")) fail("undo did not give White the move");

  // A FEN where White's rat steps into Black's den: the game ends.
  await page.fill("#fen", "7/3R3/7/7/7/7/e6 w");
  await page.click("#setfen");
  await page.waitForSelector('#board g.piece[data-sq="d6"]');
  // By dragging the rat onto the den.
  await page.dragAndDrop('#board g.piece[data-sq="d6"]', '#board rect[data-sq="d7"]');
  await page.waitForFunction(() => document.getElementById("message").textContent.includes("Game over"), null, { timeout: 5000 });
  console.log("message: " + (await page.textContent("#message")));

  // The analysis streams iterations from the start position.
  await page.click("#new");
  await page.selectOption("#engine", "none");
  await page.click("#analyse");
  await page.waitForFunction(() => /depth \d+/.test(document.getElementById("analysis").textContent), null, { timeout: 10000 });
  await page.click("#stop");
  console.log("analysis: " + (await page.textContent("#analysis")).split("\n")[0]);

  // The tables' value of a 2-piece position (the server runs with --tb).
  await page.fill("#fen", "7/7/7/3r3/7/3R3/7 w");
  await page.click("#setfen");
  await page.click("#probe");
  await page.waitForFunction(() => document.getElementById("analysis").textContent.startsWith("tables: loss in 6"), null, { timeout: 5000 });
  console.log("tables: " + (await page.textContent("#analysis")).split("\n")[0]);

  // Classical checkers on the SVG board: the man on 9 to 13 by two
  // clicks (the engine plays nobody), then a position where two captures
  // go from 3 to 19 along different paths and the page offers the choice.
  await page.selectOption("#game", "classical-checkers");
  await page.waitForSelector('#board rect[data-sq="32"].dark');
  await page.click('#board g.piece[data-sq="9"]');
  await page.waitForSelector('#board circle.target[data-target="13"]');
  await page.click('#board rect[data-sq="13"]');
  await page.waitForFunction(() => document.getElementById("moves").textContent.trim() === "9-13", null, { timeout: 5000 });
  console.log("checkers moves: " + (await movesText()));
  await page.fill("#fen", "W:W3:B6,7,14,15,K32");
  await page.click("#setfen");
  await page.waitForSelector('#board g.piece.king[data-sq="32"]');
  await page.click('#board g.piece[data-sq="3"]');
  await page.click('#board rect[data-sq="19"]');
  await page.waitForSelector("#choice button");
  const choices = await page.$$eval("#choice button", (bs) => bs.map((b) => b.textContent));
  console.log("capture choice: " + choices.join(" "));
  if (choices.sort().join(" ") !== "3x10x19 3x12x19") fail("the choice is not 3x10x19 or 3x12x19");
  await page.click('#choice button[data-m="3x12x19"]');
  await page.waitForFunction(() => document.getElementById("moves").textContent.trim() === "3x12x19", null, { timeout: 5000 });
  if (await page.$('#board g.piece[data-sq="7"]')) fail("the man on 7 was not captured");
  await page.screenshot({ path: `${shots}/classical-checkers.png` });

  // English checkers against the engine at a named level: Black (first)
  // plays 11-15 by clicks, the engine answers at "beginner".
  await page.selectOption("#game", "english-checkers");
  await page.waitForSelector('#board rect[data-sq="29"].dark');
  await page.selectOption("#level", "beginner");
  await page.selectOption("#engine", "white");
  await page.click('#board g.piece[data-sq="11"]');
  await page.click('#board rect[data-sq="15"]');
  await page.waitForFunction(() => document.querySelectorAll("#moves span").length === 2, null, { timeout: 10000 });
  console.log("english moves at beginner: " + (await movesText()));
  if (!(await movesText()).startsWith("11-15")) fail("the first move is not 11-15");

  // Save writes PDN into the text box; a new game, then Load brings the
  // moves back.
  await page.selectOption("#engine", "none");
  await page.click("#save");
  await page.waitForFunction(() => document.getElementById("gametext").value.includes("11-15"), null, { timeout: 5000 });
  const pdn = await page.inputValue("#gametext");
  if (!pdn.includes('[Rules "english"]')) fail("the saved game is not PDN: " + pdn);
  await page.screenshot({ path: `${shots}/english-checkers.png` });
  const saved = await movesText();
  await page.click("#new");
  await page.waitForFunction(() => document.querySelectorAll("#moves span").length === 0, null, { timeout: 5000 });
  await page.click("#loadtext");
  await page.waitForFunction((m) => document.getElementById("moves").textContent.trim() === m, saved, { timeout: 5000 });
  console.log("loaded: " + (await movesText()));

  // A pasted move list of Jungle Checkers switches the game.
  await page.fill("#gametext", '{"game":"jungle-checkers","rules":"leiden","opening":"7/3R3/7/7/7/7/e6 w","moves":[]}');
  await page.click("#loadtext");
  await page.waitForSelector('#board rect[data-sq="d7"].den');
  if ((await page.inputValue("#game")) !== "jungle-checkers") fail("the game did not switch to jungle-checkers");

  // Prove: White's rat is one step from the den, a win for White.
  await page.selectOption("#provetime", "1000");
  await page.click("#prove");
  await page.waitForFunction(() => document.getElementById("analysis").textContent.startsWith("proof: win for white"), null, { timeout: 10000 });
  console.log((await page.textContent("#analysis")).replace(/\n/g, "; "));
  await page.screenshot({ path: `${shots}/prove.png` });

  // A screenshot of the Jungle board.
  await page.selectOption("#game", "jungle");
  await page.waitForSelector('#board rect[data-sq="d9"].den');
  await page.screenshot({ path: `${shots}/jungle.png` });
} catch (e) {
  fail(e.stack || String(e));
} finally {
  await browser.close();
}
