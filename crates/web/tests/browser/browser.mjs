// Plays the zoo web board in headless Chromium as a player would, against
// a real `zoo serve` that this script starts, stops and starts again. For
// each of the four games: a whole game against the engine to its end; the
// races (a move, Undo, New game, a switch of game and review mode while
// the engine thinks; the server answering 503; the server stopped and
// started again mid-game), each ending in a consistent game whose next
// legal move is accepted; the phone viewport; axe-core; screenshots. Then
// a reload, a shared link, a game from the keyboard alone, several lines,
// a game review and clocks, a game's tree in PDN and the engine's lines
// played into it.
// Usage: node browser.mjs ZOO_BIN PORT TABLES_DIR SCREENSHOT_DIR
// (crates/cli/tests/it/browser.rs). ZOO_PAGE_URL, when set, is where the page
// is loaded from (a server of the assets on disk, while working on them);
// ZOO_BROWSER_SHARD=i/n runs every nth journey from the ith (below);
// ZOO_BROWSER_ONLY=WORDS only the journeys whose names hold WORDS.
import { chromium } from "playwright-core";
import { spawn } from "node:child_process";
import http from "node:http";
import { createRequire } from "node:module";

const [bin, port, tables, shots] = process.argv.slice(2);
const api = `http://127.0.0.1:${port}`;
const url = process.env.ZOO_PAGE_URL || api + "/";
const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const GAMES = ["jungle", "jungle-checkers", "classical-checkers", "english-checkers"];
// Near the end: the human (Black) moves, the engine (White) ends the game.
const FINAL = {
  "jungle": ["2R4/7/7/7/7/7/7/7/e6 b", "White wins (den entered)"],
  "jungle-checkers": ["7/3R3/7/7/7/7/e6 b", "White wins (den entered)"],
  "classical-checkers": ["B:W14:B22", "White wins"],
  "english-checkers": ["B:W22:B14", "White wins"],
};
const shardText = process.env.ZOO_BROWSER_SHARD || "0/1";
const [shard, shards] = shardText.split("/").map(Number);
if (!/^\d+\/\d+$/.test(shardText) || !(shards >= 1 && shard < shards)) {
  console.error(`ZOO_BROWSER_SHARD=${shardText}: not i/n with 0 <= i < n`);
  process.exit(2);
}
const fail = (msg) => { console.error("FAIL: " + msg); process.exitCode = 1; };
const check = (ok, msg) => { if (!ok) fail(msg); };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Node's own requests to the server (the checks' view of the game, the
// slots held for the 503 race), each on a connection of its own that is
// closed after the answer. Node's fetch keeps a pool of connections, and
// one to a server this script killed and started again can fail the next
// request with "fetch failed" whatever the server does; a fresh
// connection fails only if the server does not answer, and then the
// error names the cause (refused, reset …).
function nodeFetch(url, { method = "GET", headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const failed = (e) => reject(new Error(`${method} ${url}: ${e.code || ""} ${e.message}${serverGone ? `; ${serverGone}` : ""}`));
    const req = http.request(url, { method, headers: { ...headers, Connection: "close" }, agent: false }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("error", failed);
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        resolve({
          ok: res.statusCode >= 200 && res.statusCode < 300,
          status: res.statusCode,
          headers: { get: (name) => res.headers[name.toLowerCase()] ?? null },
          text: async () => text,
          json: async () => JSON.parse(text),
        });
      });
    });
    req.on("error", failed);
    // fetch gives up after 300 s without an answer; so does this, sooner
    // (the longest request here, a held analysis, takes 2 s).
    req.setTimeout(30000, () => req.destroy(new Error("no answer within 30 s")));
    req.end(body);
  });
}

// The server, started and stopped as a process.
// A server that ends without being stopped here is a failure of the
// server's, named with its exit status or signal.
let server = null;
let serverGone = null;
async function startServer() {
  const s = spawn(bin, ["serve", "--port", port, "--tb", tables, "--max-movetime", "2000", "--max-searches", "2"], { stdio: ["ignore", "ignore", "inherit"] });
  server = s;
  serverGone = null;
  s.once("exit", (code, signal) => {
    if (server !== s) return;
    serverGone = `zoo serve ended by itself (${signal ? "signal " + signal : "exit status " + code})`;
    fail(serverGone);
  });
  for (let i = 0; i < 100 && !serverGone; i++) {
    try { if ((await nodeFetch(api + "/api/games")).ok) return; } catch (_) { /* not yet */ }
    await sleep(100);
  }
  throw new Error(serverGone || "zoo serve did not start");
}
async function stopServer() {
  const s = server; server = null;
  // One that has ended already (a failure named above) has no exit to
  // wait for.
  if (s.exitCode !== null || s.signalCode !== null) return;
  const gone = new Promise((r) => s.once("exit", r));
  s.kill("SIGKILL");
  await gone;
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const t0 = Date.now();
try {
  await startServer();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.on("pageerror", (e) => fail("page error: " + e.message));
  await page.goto(url);
  await page.waitForSelector("#board rect.sq");
  await idle(page);

  // Each journey starts its own game. ZOO_BROWSER_SHARD=i/n: this run
  // takes journeys i, i+n, … (the test runs n at once, each with a
  // server of its own: the journeys mostly wait on the engine's clock,
  // so two at once take half the time on two cores); unset: all.
  const journeys = [
    ...GAMES.map((game) => [game, () => racesAndGame(page, game)]),
    ["tools", () => tools(page)],
    ["reload and link", () => reloadAndLink(context, page)],
    ["keyboard", () => keyboardGame(page)],
    // (In this order the two halves take about as long.)
    ["links and resign", () => linksAndResign(page)],
    ["phone and axe", () => phoneAndAxe(context)],
    ["several lines", () => severalLines(page)],
    ["review and clocks", () => reviewAndClocks(page)],
    ["variations", () => variationsKept(page)],
    ["tree in PDN, engine lines", () => treeAndLines(page)],
    ["editor's row of pieces", () => paletteDrag(page)],
    ["one line, nested variations, clocks kept", () => oneLineNestedClocks(page)],
    ["tree, review and clock in every game", () => everyGameTreeReviewClock(page)],
  ];
  for (const [i, [name, run]] of journeys.entries()) {
    if (i % shards !== shard) continue;
    if (process.env.ZOO_BROWSER_ONLY && !name.includes(process.env.ZOO_BROWSER_ONLY)) continue;
    await run();
    console.log(`${name}: done at ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  }
  console.log(`shard ${shard}/${shards}: its journeys in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
} catch (e) {
  fail(e.stack || String(e));
  for (const p of browser.contexts().flatMap((c) => c.pages())) {
    const state = await p.evaluate(() => `mode ${document.body.dataset.mode}; message "${document.getElementById("messagetext").textContent}" ${document.getElementById("note").textContent}; moves ${document.getElementById("moves").textContent}; fen ${document.getElementById("fen").value}`).catch(() => "");
    console.error("page: " + state);
  }
} finally {
  await browser.close();
  if (server) { const s = server; server = null; s.kill("SIGKILL"); }
}

// ---- What the page shows ----

async function mode(page) { return page.getAttribute("body", "data-mode"); }
async function idle(page, timeout = 10000) {
  await page.waitForFunction(() => ["idle", "over"].includes(document.body.dataset.mode), null, { timeout });
}
async function moveCount(page) { return page.$$eval("#moves button[data-i]", (b) => b.length); }
async function message(page) { return page.textContent("#messagetext"); }
async function legal(page) { return page.$$eval("#legal button", (bs) => bs.map((b) => b.dataset.m)); }

// A click on a square: on its piece if it has one, else on the square.
async function clickSq(page, sq) { await page.locator(`#board [data-sq="${sq}"]`).last().click(); }
// The first legal move, played on the board by two clicks.
async function playFirst(page) {
  const [m] = await legal(page);
  if (!m) throw new Error("no legal move offered");
  const path = m.includes("-") || m.includes("x") ? m.split(/[-x]/) : [m.slice(0, 2), m.slice(2, 4)];
  await page.click(`#board g.piece[data-sq="${path[0]}"]`);
  await clickSq(page, path[path.length - 1]);
  if (await page.$("#choice button")) await page.click(`#choice button[data-m="${m}"]`);
  return m;
}
// The page's game is the server's: the FEN shown is what the server says
// of the link's game (game, rules, start, moves), and its moves are shown.
async function consistent(page, what) {
  const link = new URL(await page.inputValue("#link"));
  const q = link.searchParams;
  const body = { game: q.get("game"), rules: q.get("rules"), moves: (q.get("moves") || "").split(",").filter(Boolean) };
  if (q.get("fen")) body.fen = q.get("fen");
  const r = await nodeFetch(api + "/api/position", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const v = await r.json();
  check(r.ok, `${what}: the server refuses the page's game: ${JSON.stringify(v)}`);
  check(v.fen === (await page.inputValue("#fen")), `${what}: the page shows ${await page.inputValue("#fen")}, the server ${v.fen}`);
  check(v.moves.length === (await moveCount(page)), `${what}: ${await moveCount(page)} moves shown, ${v.moves.length} in the game`);
}
// The next legal move is accepted (and the engine answers it).
async function nextMoveAccepted(page, what) {
  const n = await moveCount(page);
  await playFirst(page);
  await page.waitForFunction((n) => document.querySelectorAll("#moves button[data-i]").length > n, n, { timeout: 5000 });
  await idle(page);
  await consistent(page, what + ", then a move");
}
async function startThinking(page) {
  await playFirst(page);
  await page.waitForFunction(() => document.body.dataset.mode === "thinking", null, { timeout: 5000 });
}
// After a race: nothing more lands once the engine's time is over.
async function settled(page, n, what) {
  await sleep(1400);
  check((await moveCount(page)) === n, `${what}: ${await moveCount(page)} moves after the race, expected ${n}`);
  check(await page.isHidden("#retry"), `${what}: an error is shown: ${await message(page)}`);
  await consistent(page, what);
}

// A legal move chosen by `pick` from the list of legal moves, played from
// the position shown: the line shown then ends with it (a new line or one
// the tree has), and the page is idle again.
async function playPicked(page, pick) {
  const m = pick(await legal(page));
  await page.click(`#legal button[data-m="${m}"]`);
  await page.waitForFunction((mv) => (new URL(document.getElementById("link").value).searchParams.get("moves") || "").split(",").pop() === mv, m, { timeout: 5000 });
  await idle(page);
  return m;
}

async function setFen(page, fen) {
  await page.fill("#fen", fen);
  await page.click("#setfen");
  await page.waitForFunction((f) => new URL(document.getElementById("link").value).searchParams.get("fen") === f, fen, { timeout: 5000 });
  await idle(page);
}
async function newGame(page, game, engine) {
  await page.selectOption("#engine", "none");
  if ((await page.inputValue("#game")) !== game) await page.selectOption("#game", game);
  else await page.click("#new");
  await page.waitForFunction((g) => new URL(document.getElementById("link").value).searchParams.get("game") === g && document.querySelectorAll("#moves button[data-i]").length === 0, game);
  await page.selectOption("#engine", engine);
  await idle(page);
}

async function racesAndGame(page, game) {
  await page.selectOption("#level", "");
  await page.selectOption("#movetime", "1000");
  await newGame(page, game, game === "english-checkers" ? "white" : "black");
  const engineColour = game === "english-checkers" ? "white" : "black";

  // A move while the engine thinks: refused, the engine's reply lands.
  await startThinking(page);
  await page.click(`#board g.piece.${engineColour}`);
  const said = await message(page);
  // (Unless the engine's move came first.)
  check(/engine is thinking/.test(said) || (await moveCount(page)) === 2, `${game}: a move while thinking: ${said}`);
  await page.waitForFunction(() => document.querySelectorAll("#moves button[data-i]").length === 2, null, { timeout: 5000 });
  await idle(page);
  await settled(page, 2, `${game}, a move while thinking`);

  // Undo while the engine thinks: the move is taken back, no reply lands.
  await startThinking(page);
  await page.click("#undo");
  await idle(page);
  await settled(page, 2, `${game}, undo while thinking`);
  await nextMoveAccepted(page, `${game}, undo while thinking`);

  // Review while the engine thinks: the engine stops; End brings it back.
  await startThinking(page);
  const n = await moveCount(page);
  await page.click('#moves button[data-i="0"]');
  await page.waitForFunction(() => document.body.dataset.mode === "reviewing");
  await sleep(1400);
  check((await moveCount(page)) === n && (await mode(page)) === "reviewing", `${game}: the engine moved in review mode`);
  await page.keyboard.press("End");
  await page.waitForFunction((n) => document.querySelectorAll("#moves button[data-i]").length === n + 1, n, { timeout: 6000 });
  await idle(page);
  await settled(page, n + 1, `${game}, review while thinking`);

  // Move now before the engine's first line has come (the answer held
  // back 700 ms): the engine still moves at once, and the page takes
  // moves again (issue #51: it stayed "thinking" for good).
  await page.route("**/api/analyse/stream*", async (route) => { await sleep(700); await route.continue().catch(() => {}); });
  const k = await moveCount(page);
  await startThinking(page);
  await page.click("#movenow");
  await page.waitForFunction((k) => document.querySelectorAll("#moves button[data-i]").length === k + 2, k, { timeout: 6000 })
    .catch(async () => fail(`${game}: Move now before the first line: ${await moveCount(page)} moves, mode ${await mode(page)}`));
  await page.unroute("**/api/analyse/stream*");
  await idle(page);
  await settled(page, k + 2, `${game}, move now before the first line`);

  // The server answers 503 (both search slots held by long analyses): the
  // page says so, retries, and the engine's move comes.
  const hold = () => nodeFetch(api + "/api/analyse", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ game: "jungle", movetime_ms: 2000 }) });
  const held = [hold(), hold()];
  await sleep(300);
  const before = await moveCount(page);
  await playFirst(page);
  await page.waitForFunction(() => /busy/.test(document.getElementById("note").textContent), null, { timeout: 5000 });
  console.log(`${game} 503: ${await page.textContent("#note")}`);
  await Promise.all(held);
  await page.waitForFunction((n) => document.querySelectorAll("#moves button[data-i]").length === n + 2, before, { timeout: 10000 });
  await idle(page);
  await settled(page, before + 2, `${game}, 503`);

  // The server stopped mid-game (while the engine thinks) and started
  // again: the page says what failed, Retry gets the engine's move.
  await startThinking(page);
  const m = await moveCount(page);
  await stopServer();
  await page.waitForFunction(() => !document.getElementById("retry").hidden, null, { timeout: 5000 });
  console.log(`${game} server stopped: ${await message(page)}`);
  await startServer();
  await page.click("#retry");
  await page.waitForFunction((m) => document.querySelectorAll("#moves button[data-i]").length === m + 1, m, { timeout: 6000 });
  await idle(page);
  await settled(page, m + 1, `${game}, server restarted`);
  // A move sent while the server is down is not kept.
  await stopServer();
  await playFirst(page);
  await page.waitForFunction(() => !document.getElementById("retry").hidden, null, { timeout: 5000 });
  check((await moveCount(page)) === m + 1, `${game}: a move refused for want of a server is shown`);
  await startServer();
  await page.click("#retry");
  await page.waitForFunction((m) => document.querySelectorAll("#moves button[data-i]").length === m + 3, m, { timeout: 6000 });
  await idle(page);
  await consistent(page, `${game}, a move retried`);

  // New game while the engine thinks.
  await startThinking(page);
  await page.click("#new");
  await idle(page);
  await settled(page, 0, `${game}, new game while thinking`);

  // A switch of game while the engine thinks: the reply does not land in
  // the other game.
  const otherGame = GAMES[(GAMES.indexOf(game) + 1) % GAMES.length];
  await startThinking(page);
  await page.selectOption("#game", otherGame);
  // The engine keeps its side: where that side moves first, its first
  // move in the new game is due.
  const first = otherGame === "english-checkers" ? "black" : "white";
  const due = first === engineColour ? 1 : 0;
  await page.waitForFunction((d) => document.querySelectorAll("#moves button[data-i]").length === d && document.getElementById("game").value !== "", due, { timeout: 6000 });
  await idle(page);
  await settled(page, due, `${game}, a switch to ${otherGame} while thinking`);
  check((await page.inputValue("#game")) === otherGame, `${game}: the game did not switch`);
  await newGame(page, game, "none");

  // A whole game against the engine, to its end, at a fast time.
  await page.selectOption("#movetime", "200");
  await setFen(page, FINAL[game][0]);
  await page.selectOption("#engine", "white");
  for (let i = 0; i < 20 && (await mode(page)) !== "over"; i++) {
    const k = await moveCount(page);
    await playFirst(page);
    await page.waitForFunction((k) => document.querySelectorAll("#moves button[data-i]").length > k, k, { timeout: 5000 });
    await idle(page);
  }
  const end = await message(page);
  console.log(`${game} whole game: ${await page.$eval("#moves", (e) => e.textContent)} — ${end}`);
  check(end.includes(FINAL[game][1]), `${game}: the game's end says "${end}"`);
  check((await page.textContent("#live")).includes("Game over"), `${game}: the result is not announced`);
  const numberHeight = await page.$eval("#moves .num", (e) => e.getBoundingClientRect().height);
  check(numberHeight >= 10, `${game}: the move numbers are ${numberHeight} px tall`);
  await consistent(page, `${game}, game over`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${shots}/${game}-desktop.png` });
}

// The analysis (tied to the position shown), the tables' explorer, prove,
// a capture chosen among two, a forced capture explained, save and load,
// the position editor.
async function tools(page) {
  await newGame(page, "jungle-checkers", "none");
  await page.click("#analyse");
  await page.waitForFunction(() => /depth \d+/.test(document.getElementById("analysis").textContent) && document.querySelector("#board .arrow"), null, { timeout: 8000 });
  check(/White's side/.test(await page.textContent("#evaltext")), "no evaluation from White's side");
  const before = await page.textContent("#analysis");
  await playFirst(page);
  await page.waitForFunction(() => document.querySelectorAll("#moves button[data-i]").length === 1);
  await page.waitForFunction(() => /depth \d+/.test(document.getElementById("analysis").textContent), null, { timeout: 8000 });
  check((await page.textContent("#analysis")) !== before, "the analysis did not restart on the new position");
  console.log("analysis after a move: " + (await page.textContent("#analysis")).split("\n")[0] + " | " + (await page.textContent("#evaltext")));
  await page.click("#analyse");

  // A 2-piece position: the tables' value and every move's, clickable.
  await setFen(page, "7/7/7/3r3/7/3R3/7 w");
  await page.click("#probe");
  await page.waitForSelector("#explorer button[data-m]", { timeout: 5000 });
  console.log("tables: " + (await page.textContent("#explorer p")));
  check((await page.textContent("#explorer p")).includes("loss in 6"), "the tables' value is not a loss in 6");
  check((await page.textContent("#explorer li")).includes(": a loss in 6 for"), "a move is not valued for the mover");
  await page.click("#explorer button[data-m]");
  await page.waitForFunction(() => document.querySelectorAll("#moves button[data-i]").length === 1);
  check((await page.textContent("#explorer")) === "", "the explorer was not cleared by the move");

  // Checkers tables too: two kings against one, the longest such win.
  await newGame(page, "english-checkers", "none");
  await setFen(page, "W:WK3,K4:BK16");
  await page.click("#probe");
  await page.waitForSelector("#explorer button[data-m]", { timeout: 5000 });
  console.log("checkers tables: " + (await page.textContent("#explorer p")));
  check((await page.textContent("#explorer p")).includes("win in 33"), "the checkers tables' value is not a win in 33");
  check((await page.textContent("#explorer li")).includes(": a win in 33 for"), "the best checkers move is not a win in 33");
  await newGame(page, "jungle-checkers", "none");

  // Prove: White's rat one step from the den.
  await setFen(page, "7/3R3/7/7/7/7/e6 w");
  await page.selectOption("#provetime", "1000");
  await page.click("#prove");
  await page.waitForFunction(() => /^Proof: proven: a win for white/.test(document.getElementById("explorer").textContent), null, { timeout: 10000 });
  console.log(await page.textContent("#explorer"));
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${shots}/prove.png` });

  // The position editor: a piece placed, the side chosen, the server
  // checks; a rat in its own den is refused with the server's words.
  await page.click("#edit");
  await page.selectOption("#palette", "D");
  await page.click('#board rect.sq[data-sq="a4"]');
  await page.selectOption("#editside", "black");
  await page.click("#editdone");
  await page.waitForFunction(() => document.getElementById("fen").value === "7/3R3/7/D6/7/7/e6 b");
  await page.click("#edit");
  await page.selectOption("#palette", "R");
  await clickSq(page, "d1");
  await page.click("#editdone");
  await page.waitForFunction(() => /refused/.test(document.getElementById("messagetext").textContent));
  console.log("editor: " + (await message(page)));
  await page.click("#editcancel");

  // Classical checkers: two captures from 3 to 19, the player chooses;
  // a man that cannot take is told a capture is forced.
  await newGame(page, "classical-checkers", "none");
  await setFen(page, "W:W3,1:B6,7,14,15,K32");
  await page.waitForSelector('#board g.piece.king[data-sq="32"]');
  await page.click('#board g.piece[data-sq="1"]');
  check(/capture is forced/.test(await message(page)), "no word of a forced capture: " + (await message(page)));
  await page.click('#board g.piece[data-sq="3"]');
  check((await page.$$("#board polyline.path")).length === 2, "the capture paths are not drawn");
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${shots}/capture-paths.png` });
  await page.click('#board rect.sq[data-sq="19"]');
  await page.waitForSelector("#choice button");
  const choices = await page.$$eval("#choice button", (bs) => bs.map((b) => b.textContent).sort().join(" "));
  check(choices === "3x10x19 3x12x19", "the choice is not 3x10x19 or 3x12x19: " + choices);
  await page.click('#choice button[data-m="3x12x19"]');
  await page.waitForFunction(() => document.getElementById("moves").textContent.includes("3x12x19"));
  check(!(await page.$('#board g.piece[data-sq="7"]')), "the man on 7 was not captured");

  // Move now: the engine plays the best move found so far.
  await newGame(page, "jungle", "black");
  await page.selectOption("#movetime", "3000");
  await startThinking(page);
  await page.waitForFunction(() => /depth/.test(document.getElementById("evaltext").textContent), null, { timeout: 3000 });
  const asked = Date.now();
  await page.click("#movenow");
  await page.waitForFunction(() => document.querySelectorAll("#moves button[data-i]").length === 2, null, { timeout: 2000 });
  console.log(`move now: the engine moved ${Date.now() - asked} ms after the click (its time: 3 s)`);
  await idle(page);
  await consistent(page, "move now");
  await page.selectOption("#movetime", "1000");

  // A move played from an earlier position replaces the moves after it.
  await page.selectOption("#engine", "none");
  await page.click('#moves button[data-i="0"]');
  await page.waitForFunction(() => document.body.dataset.mode === "reviewing");
  const second = await page.textContent('#moves button[data-i="1"]');
  const another = await page.$$eval("#legal button", (bs, s) => bs.find((b) => b.textContent !== s).dataset.m, second);
  if (!(await page.$eval("#legalbox", (d) => d.open))) await page.click("#legalbox summary");
  await page.click(`#legal button[data-m="${another}"]`);
  await page.waitForFunction((s) => document.body.dataset.mode === "idle" && document.querySelectorAll("#moves button[data-i]").length === 2 && document.querySelector('#moves button[data-i="1"]').textContent !== s, second, { timeout: 5000 });
  await consistent(page, "a new line from an earlier move");

  // English checkers: save as PDN, a new game, load it back.
  await newGame(page, "english-checkers", "none");
  await playFirst(page);
  await page.waitForFunction(() => document.querySelectorAll("#moves button[data-i]").length === 1);
  const saved = await page.textContent("#moves");
  await page.click("#save");
  await page.waitForFunction(() => document.getElementById("gametext").value.includes('[Rules "english"]'), null, { timeout: 5000 });
  await page.click("#new");
  await page.waitForFunction(() => document.querySelectorAll("#moves button[data-i]").length === 0);
  await page.click("#loadtext");
  await page.waitForFunction((m) => document.getElementById("moves").textContent === m, saved, { timeout: 5000 });
  console.log("saved and loaded: " + saved);
}

// A reload brings the game back; the link opens the same position in a
// fresh page (no storage of its own).
async function reloadAndLink(context, page) {
  await newGame(page, "jungle", "black");
  await page.selectOption("#movetime", "200");
  await playFirst(page);
  await page.waitForFunction(() => document.querySelectorAll("#moves button[data-i]").length === 2, null, { timeout: 5000 });
  await idle(page);
  await page.click('#moves button[data-i="0"]');
  await page.waitForFunction(() => document.body.dataset.mode === "reviewing");
  await page.keyboard.press("End");
  await idle(page);
  const fen = await page.inputValue("#fen"), link = await page.inputValue("#link");
  await page.reload();
  await page.waitForFunction((f) => document.getElementById("fen").value === f, fen, { timeout: 5000 });
  check((await moveCount(page)) === 2, "the reload lost moves");
  console.log("reload: " + (await page.$eval("#moves", (e) => e.textContent)));
  const other = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const p2 = await other.newPage();
  await p2.goto(link);
  await p2.waitForFunction((f) => document.getElementById("fen").value === f, fen, { timeout: 5000 });
  check((await moveCount(p2)) === 2, "the link did not bring the moves");
  console.log("link: " + link);
  await other.close();
}

// Issue #51's defects around links, resigning and editing: a broken link
// says why it was not opened; Resign while reviewing keeps every move and
// the link and a reload keep the resignation; Engine plays turns the
// board at once after the game; another game ends the editing; the icon.
async function linksAndResign(page) {
  const icon = await nodeFetch(api + "/favicon.ico");
  check(icon.ok && /svg/.test(icon.headers.get("content-type") || ""), `/favicon.ico: ${icon.status}`);
  for (const q of ["game=jungle&moves=a1a5", "game=chess", "game=jungle&rules=nonsense", "game=jungle&fen=xyz"]) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const p = await ctx.newPage();
    await p.goto(`${url}?${q}`);
    await p.waitForFunction(() => /link's game could not be opened/.test(document.getElementById("messagetext").textContent), null, { timeout: 5000 })
      .catch(async () => fail(`the link ?${q} was replaced without a word: "${await p.textContent("#messagetext")}"`));
    console.log(`link ?${q}: ${await p.textContent("#messagetext")}`);
    await ctx.close();
  }
  // Six moves, then back to move 2, and Resign.
  await newGame(page, "jungle", "none");
  for (let i = 0; i < 6; i++) {
    await playFirst(page);
    await page.waitForFunction((i) => document.querySelectorAll("#moves button[data-i]").length === i + 1, i, { timeout: 5000 });
    await idle(page);
  }
  // The engine takes Black (White is to move: it does not start to
  // think), and the player, White, resigns.
  await page.selectOption("#engine", "black");
  await idle(page);
  await page.click('#moves button[data-i="1"]');
  await page.waitForFunction(() => document.body.dataset.mode === "reviewing");
  await page.click("#resign");
  await page.waitForFunction(() => document.body.dataset.mode === "over", null, { timeout: 5000 });
  check((await moveCount(page)) === 6, `Resign while reviewing left ${await moveCount(page)} of 6 moves`);
  const link = new URL(await page.inputValue("#link"));
  check((link.searchParams.get("moves") || "").split(",").length === 6 && link.searchParams.get("resigned") === "white",
    `the link after Resign: ${link.search}`);
  check(/White resigned/.test(await message(page)), `after Resign: "${await message(page)}"`);
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.mode === "over", null, { timeout: 5000 })
    .catch(async () => fail(`a reload undid the resignation: mode ${await mode(page)}`));
  check((await moveCount(page)) === 6, `the reload kept ${await moveCount(page)} moves`);
  // The game is over: a change of side turns the board at once.
  const a1y = () => page.$eval('#board rect.sq[data-sq="a1"]', (r) => Number(r.getAttribute("y")));
  const before = await a1y();
  await page.selectOption("#engine", (await page.inputValue("#engine")) === "white" ? "black" : "white");
  check((await a1y()) !== before, "Engine plays changed after the game, the board did not turn");
  // The evaluation bar turns with it: White's share grows from White's side.
  const fillAt = () => page.evaluate(() => {
    const bar = document.getElementById("evalbar").getBoundingClientRect(), fill = document.getElementById("evalfill").getBoundingClientRect();
    return Math.abs(fill.top - bar.top) < 3 ? "top" : Math.abs(fill.bottom - bar.bottom) < 3 ? "bottom" : "neither";
  });
  for (const side of ["white", "black"]) {
    await page.selectOption("#engine", side);
    // Turned: White's first rank (a1) is drawn above its last.
    const flipped = (await a1y()) < (await page.$eval('#board rect.sq[data-sq="a9"]', (r) => Number(r.getAttribute("y"))));
    check((await fillAt()) === (flipped ? "top" : "bottom"), `the evaluation bar's white grows from the ${await fillAt()} with the board ${flipped ? "turned" : "upright"}`);
  }
  // A premove while the engine thinks (a piece of the player's, then a
  // square) is played as soon as the engine has moved. (3 s to think: the
  // board redraws with each of the engine's lines, and on a loaded machine
  // Playwright's clicks wait for it to hold still.)
  await page.selectOption("#movetime", "3000");
  await newGame(page, "jungle", "black");
  const start = await legal(page);
  const first = start[0];
  const pm = start.find((m) => m.slice(0, 2) !== first.slice(0, 2));
  await startThinking(page);
  await page.click(`#board g.piece[data-sq="${pm.slice(0, 2)}"]`);
  await clickSq(page, pm.slice(2, 4));
  check(/Premove/.test(await message(page)), `a premove while thinking: "${await message(page)}"`);
  check((await page.$$("#board rect.premove")).length === 2, "the premove's squares are not shown");
  await page.waitForFunction(() => document.querySelectorAll("#moves button[data-i]").length >= 3, null, { timeout: 8000 })
    .catch(async () => fail(`the premove was not played: ${await moveCount(page)} moves, "${await message(page)}"`));
  const played = (new URL(await page.inputValue("#link")).searchParams.get("moves") || "").split(",");
  check(played[2] === pm, `the premove ${pm} was played as ${played[2]}`);
  await page.selectOption("#engine", "none");
  await idle(page);
  await consistent(page, "a premove");
  await page.selectOption("#movetime", "200");
  // Sounds: off by default; on, a move makes one (a tone of Web Audio).
  check((await page.getAttribute("#sound", "aria-pressed")) === "false", "sounds are on by default");
  await page.evaluate(() => {
    window.tones = 0;
    const make = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function () { window.tones++; return make.call(this); };
  });
  await newGame(page, "jungle", "none");
  await playFirst(page);
  await page.waitForFunction(() => document.querySelectorAll("#moves button[data-i]").length === 1);
  check((await page.evaluate(() => window.tones)) === 0, "a sound with sounds off");
  await page.click("#sound");
  check((await page.getAttribute("#sound", "aria-pressed")) === "true", "the sound toggle does not turn on");
  await playFirst(page);
  await page.waitForFunction(() => document.querySelectorAll("#moves button[data-i]").length === 2);
  check((await page.evaluate(() => window.tones)) === 1, `sounds on: ${await page.evaluate(() => window.tones)} tones for a move`);
  await page.click("#sound");
  await idle(page);
  // A move while an Undo is still on its way (its answer held back):
  // refused with a word, and the Undo lands.
  await newGame(page, "jungle", "none");
  await playFirst(page);
  await page.waitForFunction(() => document.querySelectorAll("#moves button[data-i]").length === 1);
  await idle(page);
  await page.route("**/api/position", async (route) => { await sleep(800); await route.continue().catch(() => {}); });
  await page.click("#undo");
  await sleep(100);
  await playFirst(page).catch(() => {});
  check(/still on its way/.test(await message(page)), `a move during a pending Undo: "${await message(page)}"`);
  await page.waitForFunction(() => document.querySelectorAll("#moves button[data-i]").length === 0, null, { timeout: 5000 })
    .catch(async () => fail(`the Undo was dropped: ${await moveCount(page)} moves`));
  await page.unroute("**/api/position");
  await idle(page);
  await consistent(page, "a move during a pending Undo");
  // Strengths follow the rule set (the server's): under `common` the dog
  // is 3 and the wolf 4; under `leiden` the other way round.
  await newGame(page, "jungle", "none");
  const named = (sq) => page.textContent(`#board rect.sq[data-sq="${sq}"] title`);
  for (const [rules, dog, wolf, dogSq, wolfSq] of [["leiden", 4, 3, "f2", "c3"], ["common", 3, 4, "b2", "e3"]]) {
    await page.selectOption("#rules", rules);
    await page.waitForFunction((r) => new URL(document.getElementById("link").value).searchParams.get("rules") === r, rules);
    await idle(page);
    const d = await named(dogSq), w = await named(wolfSq);
    check(d.includes(`dog ${dog}`) && w.includes(`wolf ${wolf}`), `${rules}: the dog reads "${d}", the wolf "${w}"`);
  }
  // A click on a piece leaves no keyboard focus square (only the keyboard
  // shows one); the piece moved glides on the board that stays; the
  // player's move is still announced beside the engine's reply.
  await newGame(page, "jungle", "none");
  await page.click("#board g.piece.white");
  check(!(await page.$("#board .focus")), "a click left a keyboard focus square on the board");
  // Each glide started is watched frame by frame for its 140 ms: it is
  // seen when the moved piece then in the board is gliding. (The bug: the
  // board was redrawn in the step that started it, so the piece shown
  // never moved.) Watched in the page, so that no round trip of the
  // test's is timed.
  await page.evaluate(() => {
    window.glideSeen = false;
    const animate = Element.prototype.animate;
    Element.prototype.animate = function (...a) {
      const an = animate.apply(this, a), sq = this.getAttribute("data-sq"), t0 = performance.now();
      const look = () => {
        const now = document.querySelector(`#board g.piece[data-sq="${sq}"]`);
        if (now && now.getAnimations().some((x) => x.playState === "running")) { window.glideSeen = true; return; }
        if (performance.now() - t0 < 140) requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
      return an;
    };
  });
  await page.keyboard.press("Escape");
  await page.selectOption("#movetime", "200");
  await page.selectOption("#engine", "black");
  await idle(page);
  await playFirst(page);
  await page.waitForFunction(() => window.glideSeen, null, { timeout: 3000 })
    .catch(() => fail("the move's glide was never seen on the board (its piece replaced at once)"));
  await page.waitForFunction(() => document.querySelectorAll("#moves button[data-i]").length === 2, null, { timeout: 5000 });
  await idle(page);
  const live = await page.textContent("#live");
  check(/White plays .*Engine, Black plays/.test(live), `the announcements after a move and its reply: "${live}"`);
  // The editor's Clear board and Start position.
  await newGame(page, "jungle", "none");
  await page.click("#edit");
  await page.waitForFunction(() => document.body.dataset.mode === "editing");
  await page.click("#editclear");
  check((await page.$$("#board g.piece")).length === 0, "Clear board left pieces");
  await page.click("#editstart");
  await page.waitForFunction(() => document.querySelectorAll("#board g.piece").length === 16, null, { timeout: 5000 })
    .catch(async () => fail(`Start position: ${(await page.$$("#board g.piece")).length} pieces`));
  await page.click("#editdone");
  await idle(page);
  // The start under the rules in force (the page's rules: `common` here).
  const rulesNow = new URL(await page.inputValue("#link")).searchParams.get("rules");
  const startFen = (await (await nodeFetch(api + "/api/position", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ game: "jungle", rules: rulesNow }) })).json()).fen;
  check((await page.inputValue("#fen")) === startFen, `the editor's start position is ${await page.inputValue("#fen")}`);
  // Edit position, then another game: the editing ends with the old board.
  await newGame(page, "jungle", "none");
  await page.click("#edit");
  await page.waitForFunction(() => document.body.dataset.mode === "editing");
  await page.selectOption("#game", "english-checkers");
  await page.waitForFunction(() => document.body.dataset.mode !== "editing" && document.getElementById("game").value === "english-checkers", null, { timeout: 5000 })
    .catch(async () => fail(`another game while editing: mode ${await mode(page)}`));
  await idle(page);
  await consistent(page, "another game while editing");
}

// Multi-PV in every game: Lines 3, then 2, while the analysis runs; the
// lines' first moves differ and their scores fall from the first.
async function severalLines(page) {
  for (const game of GAMES) {
    await newGame(page, game, "none");
    await page.selectOption("#multipv", "3");
    await page.click("#analyse");
    const lines = async (n) => {
      await page.waitForFunction((k) => document.querySelectorAll("#lines li").length === k, n, { timeout: 8000 })
        .catch(async () => fail(`${game}: not ${n} lines: "${await page.textContent("#analysis")}"`));
      return page.$$eval("#lines li", (ls) => ls.map((l) => l.textContent));
    };
    let shown = await lines(3);
    const firsts = shown.map((t) => t.split("  ")[1].split(" ")[0]);
    check(new Set(firsts).size === 3, `${game}: the lines' first moves repeat: ${shown.join(" | ")}`);
    const white = (t) => { const m = /^([+-]\d+) for White/.exec(t); return m ? Number(m[1]) : null; };
    const scores = shown.map(white);
    // From the mover's side the lines fall (Black moves first in English
    // checkers: from White's side they rise there).
    const sign = (await page.evaluate(() => S.view.side)) === "white" ? 1 : -1;
    if (scores.every((x) => x !== null)) check(sign * scores[0] >= sign * scores[1] && sign * scores[1] >= sign * scores[2], `${game}: lines out of order: ${shown.join(" | ")}`);
    console.log(`${game} lines: ${shown.join(" | ")}`);
    if (game === "jungle") {
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: `${shots}/multipv.png` });
    }
    await page.selectOption("#multipv", "2");
    shown = await lines(2);
    await page.click("#analyse");
    await page.selectOption("#multipv", "1");
    await idle(page);
  }
}

// Game review: a won checkers ending thrown away (the tables mark the
// move exactly), the graph's points and the marked moves go to their
// move. Clocks: the engine is asked with its clock, the increment is
// added, a flag fall ends the game and the link keeps it.
async function reviewAndClocks(page) {
  // A dragged piece follows the pointer, and is played where it is let go.
  await newGame(page, "jungle-checkers", "none");
  const mv = (await legal(page))[0];
  const box = async (sq) => page.locator(`#board rect.sq[data-sq="${sq}"]`).boundingBox();
  const [a, z] = [await box(mv.slice(0, 2)), await box(mv.slice(2, 4))];
  const mid = { x: (a.x + z.x) / 2 + a.width / 2, y: (a.y + z.y) / 2 + a.height / 2 };
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(mid.x, mid.y, { steps: 4 });
  const dragged = await page.$eval("#board g.piece.dragging", (g) => { const r = g.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; }).catch(() => null);
  check(dragged && Math.abs(dragged.x - mid.x) < a.width / 2 && Math.abs(dragged.y - mid.y) < a.height / 2, `the dragged piece did not follow the pointer: ${JSON.stringify(dragged)} for ${JSON.stringify(mid)}`);
  await page.mouse.move(z.x + z.width / 2, z.y + z.height / 2, { steps: 4 });
  await page.mouse.up();
  await page.waitForFunction(() => document.querySelectorAll("#moves button[data-i]").length === 1, null, { timeout: 5000 })
    .catch(() => fail(`the drag ${mv} was not played`));
  await idle(page);

  // White's two kings beat one; 7-10 lets Black's king take one: a draw.
  await page.goto(`${url}?game=english-checkers&fen=${encodeURIComponent("W:WK4,K7:BK15")}&moves=7-10,15x6`);
  await page.waitForSelector("#board rect.sq");
  await page.selectOption("#engine", "none");
  await idle(page);
  await page.click("#reviewgame");
  await page.waitForFunction(() => /^Reviewed:/.test(document.getElementById("reviewtext").textContent), null, { timeout: 15000 })
    .catch(async () => fail(`the review did not end: "${await page.textContent("#reviewtext")}"`));
  const marked = await page.$$eval("#reviewlist li", (ls) => ls.map((l) => l.textContent));
  console.log("review: " + (await page.textContent("#reviewtext")) + " | " + marked.join(" | "));
  check(marked.length >= 1 && /7-10\?\?.*blunder \(the tables: win to draw\)/.test(marked[0]), `the thrown win is not marked by the tables: ${marked.join(" | ")}`);
  check((await page.textContent("#moves")).includes("7-10??"), "the move list does not mark 7-10");
  check((await page.$$("#reviewgraph circle")).length === 3, "the graph has not a point a position");
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${shots}/review.png` });
  // A point of the graph goes to its position; a marked move to its own.
  await page.locator("#reviewgraph").click({ position: { x: 3, y: 20 } });
  await page.waitForFunction(() => !document.querySelector("#moves [aria-current]"), null, { timeout: 5000 })
    .catch(() => fail("the graph's first point did not go to the start"));
  await page.click("#reviewlist button");
  await page.waitForFunction(() => document.querySelector("#moves [aria-current]") && document.querySelector("#moves [aria-current]").dataset.i === "0", null, { timeout: 5000 })
    .catch(() => fail("the marked move's button did not go to its position"));

  // Clocks: 1+1 against the engine.
  const asked = [];
  const listen = (r) => { if (r.url().includes("/api/analyse/stream")) asked.push(r.url()); };
  page.on("request", listen);
  await newGame(page, "jungle-checkers", "black");
  check((await page.textContent("#reviewtext")) === "", "a new game kept the last game's review");
  await page.selectOption("#clock", "1+1");
  await page.waitForFunction(() => !document.getElementById("clocks").hidden && /White 1:00/.test(document.getElementById("clock-white").textContent));
  check(/running/.test(await page.getAttribute("#clock-white", "aria-label")), "White's clock is not running on White's move");
  await playFirst(page);
  await page.waitForFunction(() => document.querySelectorAll("#moves button[data-i]").length === 2, null, { timeout: 10000 });
  await idle(page);
  page.off("request", listen);
  check(asked.some((u) => /clock_ms=\d+/.test(u) && /inc_ms=1000/.test(u)), `the engine was not given its clock: ${asked.join(" ")}`);
  const white = await page.textContent("#clock-white");
  check(/White 1:0[0-1]/.test(white) || /White 0:59/.test(white), `White's clock after a move and its increment: ${white}`);
  console.log("clocks: " + white + " | " + (await page.textContent("#clock-black")));
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${shots}/clocks.png` });
  // White lets its time run out.
  await page.evaluate(() => { S.clock.white = 1200; });
  await page.waitForFunction(() => document.body.dataset.mode === "over", null, { timeout: 5000 })
    .catch(() => fail("no flag fall"));
  check(/White's time ran out: Black wins/.test(await message(page)), `the flag fall: "${await message(page)}"`);
  check(/time ran out/.test(await page.textContent("#live")), "the flag fall was not announced");
  check(new URL(await page.inputValue("#link")).searchParams.get("timeout") === "white", "the link does not keep the flag fall");
  await page.selectOption("#clock", "");
  await page.reload();
  await page.waitForSelector("#board rect.sq");
  await page.waitForFunction(() => document.body.dataset.mode === "over", null, { timeout: 5000 })
    .catch(() => fail("a reload undid the flag fall"));
  await page.selectOption("#engine", "none");
}

// The move tree: a move from an earlier position starts a variation and
// keeps the old line, shown in brackets; its moves go to their positions;
// Make main line and Delete from here; a reload keeps the variations.
async function variationsKept(page) {
  await newGame(page, "jungle-checkers", "none");
  await page.evaluate(() => { document.getElementById("legalbox").open = true; });
  const count = () => moveCount(page);
  const playLegal = async (k) => {
    const n = await count(), m = (await legal(page))[k];
    await page.click(`#legal button[data-m="${m}"]`);
    await page.waitForFunction((c) => document.querySelectorAll("#moves button[data-i]").length === c, n + 1, { timeout: 5000 });
    await idle(page);
    return m;
  };
  const main = [await playLegal(0), await playLegal(0), await playLegal(0)];
  await page.click('#moves button[data-i="0"]');
  await page.waitForFunction(() => document.querySelector('#moves button[data-i="0"][aria-current]') && document.body.dataset.mode === "reviewing");
  // Another second move than the line's: a variation.
  const others = (await legal(page)).filter((m) => m !== main[1]);
  await page.click(`#legal button[data-m="${others[0]}"]`);
  await page.waitForFunction(() => document.querySelectorAll("#moves button[data-i]").length === 2 && document.querySelector("#moves li.var"), null, { timeout: 5000 })
    .catch(async () => fail(`no variation kept: "${await page.textContent("#moves")}"`));
  await idle(page);
  const kept = await page.$$eval("#moves li.var button", (bs) => bs.map((b) => b.dataset.line));
  check(kept.length === 2 && kept[1] === main.join(","), `the old line is not the variation: ${kept.join(" | ")}`);
  check(!(await page.isDisabled("#promote")), "Make main line is off on a variation");
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${shots}/variations.png` });
  // The old line's last move: shown, with the new move now the variation.
  await page.click(`#moves li.var button[data-line="${main.join(",")}"]`);
  await page.waitForFunction((l) => document.querySelectorAll("#moves button[data-i]").length === 3 && new URL(document.getElementById("link").value).searchParams.get("moves") === l, main.join(","), { timeout: 5000 })
    .catch(() => fail("the variation's move did not show its line"));
  await idle(page);
  check(await page.isDisabled("#promote"), "Make main line is on for the main line");
  // Back to the new line, made the main line.
  await page.click(`#moves li.var button[data-line="${main[0]},${others[0]}"]`);
  await page.waitForFunction(() => document.querySelectorAll("#moves button[data-i]").length === 2, null, { timeout: 5000 });
  await idle(page);
  await page.click("#promote");
  check(await page.isDisabled("#promote"), "promoted, yet still a variation");
  // A reload keeps the tree.
  await page.reload();
  await page.waitForSelector("#board rect.sq");
  await page.waitForFunction(() => document.querySelector("#moves li.var"), null, { timeout: 5000 })
    .catch(() => fail("a reload lost the variations"));
  await idle(page);
  // Delete from here: the move shown goes, and its line with it.
  await page.click("#cutline");
  await page.waitForFunction(() => document.querySelectorAll("#moves button[data-i]").length === 3, null, { timeout: 5000 })
    .catch(async () => fail(`Delete from here: "${await page.textContent("#moves")}"`));
  check(!(await page.$("#moves li.var")), "the deleted line is still shown as a variation");
  check(/^Move 1 of 3/.test(await message(page)), `after the delete, not the move before it: "${await message(page)}"`);
  await page.click('#moves button[data-i="2"]');
  await idle(page);
  await consistent(page, "the move tree");
  await page.evaluate(() => { document.getElementById("legalbox").open = false; });
}

// The tree in PDN: an English checkers game with a variation and
// comments saved, a new game, the text loaded back: the variation and the
// comments are in the move list (and after a reload); a bad variation is
// refused naming its move. Then the engine's lines: a move of a line
// previews its position on a small board (Escape closes it), Enter plays
// the line to it into the game as a variation, the old line kept.
async function treeAndLines(page) {
  await newGame(page, "english-checkers", "none");
  await page.evaluate(() => { document.getElementById("legalbox").open = true; });
  const playLegal = async (m) => {
    const n = await moveCount(page);
    await page.click(`#legal button[data-m="${m}"]`);
    await page.waitForFunction((c) => document.querySelectorAll("#moves button[data-i]").length === c, n + 1, { timeout: 5000 });
    await idle(page);
  };
  const comment = async (text) => {
    await page.fill("#commenttext", text);
    await page.click("#setcomment");
    await page.waitForFunction((t) => document.getElementById("moves").textContent.includes(t), text, { timeout: 2000 })
      .catch(async () => fail(`the comment "${text}" is not in the move list: "${await page.textContent("#moves")}"`));
  };
  const first = (await legal(page))[0];
  await playLegal(first);
  await comment("the opening move");
  const main = (await legal(page))[0];
  await playLegal(main);
  await page.click('#moves button[data-i="0"]');
  await page.waitForFunction(() => document.body.dataset.mode === "reviewing");
  const side = (await legal(page)).find((m) => m !== main);
  await page.click(`#legal button[data-m="${side}"]`);
  await page.waitForFunction(() => document.querySelector("#moves li.var button") && document.body.dataset.mode === "idle", null, { timeout: 5000 });
  await comment("a side line");
  await page.click("#save");
  await page.waitForFunction(() => document.getElementById("gametext").value.includes("("), null, { timeout: 5000 })
    .catch(async () => fail(`the saved PDN has no variation: ${await page.inputValue("#gametext")}`));
  const pdn = await page.inputValue("#gametext");
  check(pdn.includes(`1. ${first} {the opening move} 1... ${main} (1... ${side} {a side line}) *`), `the saved PDN: ${pdn}`);
  await page.click("#new");
  await page.waitForFunction(() => document.querySelectorAll("#moves button[data-i]").length === 0);
  await page.click("#loadtext");
  const loaded = () => page.waitForFunction(([s]) => {
    const v = document.querySelector("#moves li.var button");
    return document.querySelectorAll("#moves button[data-i]").length === 2 && v && v.textContent === s
      && document.getElementById("moves").textContent.includes("a side line") && document.getElementById("moves").textContent.includes("the opening move");
  }, [side], { timeout: 5000 });
  await loaded().catch(async () => fail(`the loaded game lost its tree: "${await page.textContent("#moves")}"`));
  check((await page.textContent('#moves button[data-i="1"]')) === main, "the loaded main line is not the saved one");
  console.log("tree saved and loaded: " + (await page.textContent("#moves")));
  await page.reload();
  await page.waitForSelector("#board rect.sq");
  await loaded().catch(async () => fail(`a reload lost the comments: "${await page.textContent("#moves")}"`));
  await page.fill("#gametext", "1. 9-14 22-18 (22-19) *");
  await page.click("#loadtext");
  await page.waitForFunction(() => /Not loaded/.test(document.getElementById("messagetext").textContent), null, { timeout: 5000 });
  check((await message(page)).includes("move 1... 22-19 in a variation is not legal"), `a bad variation: "${await message(page)}"`);

  // The engine's lines, from the start of a game of one move.
  await newGame(page, "english-checkers", "none");
  await page.evaluate(() => { document.getElementById("legalbox").open = true; });
  const played = (await legal(page))[0];
  await playLegal(played);
  await page.focus("#analyse");
  await page.keyboard.press("Home");
  await page.selectOption("#multipv", "3");
  await page.waitForFunction(() => document.body.dataset.mode === "reviewing" && !document.querySelector("#moves [aria-current]"));
  await page.click("#analyse");
  // The server caps the analysis at 2 s: its last lines then stay.
  await page.waitForFunction(() => /Done: best move/.test(document.getElementById("analysis").textContent) && document.querySelector("#lines button[data-pv]"), null, { timeout: 10000 })
    .catch(async () => fail(`no lines to click: "${await page.textContent("#analysis")}"`));
  const lines = await page.$$eval("#lines li", (ls) => ls.map((l) => [...l.querySelectorAll("button")].map((b) => b.dataset.pv)));
  const line = lines.find((l) => l.length >= 2 && l[0] !== played);
  if (!line) throw new Error(`no line of two moves that leaves ${played}: ${JSON.stringify(lines)}`);
  const target = `#lines button[data-pv="${line[1]}"]`;
  const fen = await page.inputValue("#fen");
  await page.hover(target);
  await page.waitForFunction(() => !document.getElementById("preview").hidden && document.querySelector("#previewboard g.piece"), null, { timeout: 5000 })
    .catch(() => fail("pointing at a line's move shows no preview"));
  check(/^Preview, not played/.test(await page.textContent("#previewtext")), `the preview is not marked: "${await page.textContent("#previewtext")}"`);
  check((await page.inputValue("#fen")) === fen && (await moveCount(page)) === 1, "the preview changed the game");
  await page.keyboard.press("Escape");
  check(await page.isHidden("#preview"), "Escape did not close the preview");
  // From the keyboard: the focus previews, Enter plays the line to it.
  await page.focus(target);
  await page.waitForFunction(() => !document.getElementById("preview").hidden, null, { timeout: 5000 })
    .catch(() => fail("focusing a line's move shows no preview"));
  await page.keyboard.press("Enter");
  await page.waitForFunction(([l, p]) => new URL(document.getElementById("link").value).searchParams.get("moves") === l
    && document.querySelectorAll("#moves button[data-i]").length === 2
    && [...document.querySelectorAll("#moves li.var button")].some((b) => b.dataset.line === p), [line[1], played], { timeout: 5000 })
    .catch(async () => fail(`the line was not played as a variation: "${await page.textContent("#moves")}" ${await page.inputValue("#link")}`));
  check(/as a variation/.test(await message(page)), `the line played: "${await message(page)}"`);
  check(await page.isHidden("#preview"), "the preview stays after the line is played");
  console.log("engine line played: " + (await page.textContent("#moves")));
  await page.mouse.move(0, 0);
  await page.click("#analyse");
  await page.selectOption("#multipv", "1");
  await idle(page);
  await consistent(page, "an engine line played");
  await page.evaluate(() => { document.getElementById("legalbox").open = false; });
}

// The editor's row of pieces in every game: a piece dragged from it
// follows the pointer and lands on the square it is let go over; a click
// on one chooses it for the board's clicks; the position is used.
async function paletteDrag(page) {
  for (const game of GAMES) {
    await newGame(page, game, "none");
    await page.click("#edit");
    await page.waitForFunction(() => document.body.dataset.mode === "editing" && document.querySelector("#palettepieces button[data-k]"));
    await page.click("#editclear");
    // The board and the row under it in view (the click above scrolled to
    // the editor's buttons), as a player would have them to drag.
    await page.evaluate(() => document.getElementById("board").scrollIntoView());
    const kinds = await page.$$eval("#palettepieces button[data-k]", (bs) => bs.map((b) => b.dataset.k).filter(Boolean));
    // A white piece, a black one, another white one (the animal games have
    // one of each animal a side).
    const isBlack = (k) => k === k.toLowerCase() || k[0] === "B";
    const [white, black] = [kinds[0], kinds.find(isBlack)], third = kinds.find((k) => k !== white && !isBlack(k));
    const [sqA, sqB, sqC] = game.includes("checkers") && !game.startsWith("jungle") ? ["14", "19", "23"] : ["c3", "e7", "a1"];
    const centre = async (sel) => { const r = await page.locator(sel).boundingBox(); return { x: r.x + r.width / 2, y: r.y + r.height / 2, w: r.width }; };
    const drag = async (k, sq) => {
      const a = await centre(`#palettepieces button[data-k="${k}"]`), z = await centre(`#board rect.sq[data-sq="${sq}"]`);
      await page.mouse.move(a.x, a.y);
      await page.mouse.down();
      const mid = { x: (a.x + z.x) / 2, y: (a.y + z.y) / 2 };
      await page.mouse.move(mid.x, mid.y, { steps: 5 });
      const ghost = await page.$eval("svg.ghost", (g) => { const r = g.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; }).catch(() => null);
      check(ghost && Math.abs(ghost.x - mid.x) < 4 && Math.abs(ghost.y - mid.y) < 4, `${game}: the piece dragged from the row does not follow the pointer: ${JSON.stringify(ghost)} for ${JSON.stringify(mid)}`);
      await page.mouse.move(z.x, z.y, { steps: 5 });
      await page.mouse.up();
      check(!(await page.$("svg.ghost")), `${game}: the dragged copy stays after the drop`);
    };
    await drag(white, sqA);
    await drag(black, sqB);
    // A drop off the board (on the page's header) places nothing.
    const a = await centre(`#palettepieces button[data-k="${white}"]`);
    await page.mouse.move(a.x, a.y); await page.mouse.down(); await page.mouse.move(5, 5, { steps: 3 }); await page.mouse.up();
    // A click chooses (the list follows), a click on the board places.
    await page.click(`#palettepieces button[data-k="${third}"]`);
    check((await page.inputValue("#palette")) === third && (await page.getAttribute(`#palettepieces button[data-k="${third}"]`, "aria-pressed")) === "true", `${game}: a click on the row does not choose its piece`);
    await clickSq(page, sqC);
    const placed = await page.evaluate(() => Object.fromEntries(Object.entries(S.edit).map(([q, p]) => [q, p.code])));
    check(Object.keys(placed).length === 3 && placed[sqA] === white && placed[sqB] === black && placed[sqC] === third, `${game}: the pieces placed: ${JSON.stringify(placed)}`);
    if (game === "jungle") { await page.evaluate(() => window.scrollTo(0, 0)); await page.screenshot({ path: `${shots}/editor.png` }); }
    await page.selectOption("#editside", "white");
    await page.click("#editdone");
    await page.waitForFunction(() => document.body.dataset.mode !== "editing", null, { timeout: 5000 })
      .catch(async () => fail(`${game}: the placed position was not used: "${await message(page)}"`));
    await idle(page);
    const shown = await page.evaluate(() => Object.fromEntries(Object.entries(boardOf(S.game.name).pieces(S.view.fen)).map(([q, p]) => [q, p.code])));
    check(shown[sqA] === white && shown[sqB] === black && shown[sqC] === third && Object.keys(shown).length === 3, `${game}: the position used: ${JSON.stringify(shown)}`);
    check((await page.$$("#palettepieces button")).length === 0, `${game}: the row of pieces stays after editing`);
    await consistent(page, `${game}: a position placed by dragging`);
  }
}

// Lines 1 is clickable too; variations nested in a variation are shown
// (and go to their line); the clocks survive a reload.
async function oneLineNestedClocks(page) {
  // One line: its moves preview and play as the lines of several do.
  await newGame(page, "english-checkers", "none");
  await page.selectOption("#multipv", "1");
  await page.click("#analyse");
  await page.waitForFunction(() => document.querySelectorAll("#lines li").length === 1 && document.querySelector("#lines button[data-pv]"), null, { timeout: 8000 })
    .catch(async () => fail(`Lines 1: no clickable line: "${await page.textContent("#analysis")}"`));
  // (The list is not redrawn under the pointer: the move pointed at stays.)
  await page.hover("#lines button[data-pv]");
  const first = await page.getAttribute("#lines button[data-pv]", "data-pv");
  await page.waitForFunction(() => !document.getElementById("preview").hidden, null, { timeout: 5000 })
    .catch(() => fail("Lines 1: pointing at the line's move shows no preview"));
  await page.click(`#lines button[data-pv="${first}"]`);
  await page.waitForFunction((m) => new URL(document.getElementById("link").value).searchParams.get("moves") === m, first, { timeout: 5000 })
    .catch(async () => fail(`Lines 1: the line's move was not played: ${await page.inputValue("#link")}`));
  await page.mouse.move(0, 0);
  await page.click("#analyse");
  await idle(page);

  // A variation within a variation: m1 m2 m3, then m1 a2 a3, then m1 a2 b3.
  await newGame(page, "jungle-checkers", "none");
  await page.evaluate(() => { document.getElementById("legalbox").open = true; });
  const playLegal = (pick) => playPicked(page, pick);
  const goMove = async (i) => { await page.click(`#moves button[data-i="${i}"]`); await page.waitForFunction((k) => document.querySelector(`#moves button[data-i="${k}"][aria-current]`), i); await idle(page).catch(() => {}); };
  const m = [await playLegal((l) => l[0]), await playLegal((l) => l[0]), await playLegal((l) => l[0])];
  await goMove(0);
  const a2 = await playLegal((l) => l.find((x) => x !== m[1]));
  const a3 = await playLegal((l) => l[0]);
  await goMove(1);
  const b3 = await playLegal((l) => l.find((x) => x !== a3));
  // Back to the main line: the variation a2 a3 holds b3 in brackets.
  await page.click(`#moves li.var button[data-line="${m.join(",")}"]`);
  await page.waitForFunction((l) => new URL(document.getElementById("link").value).searchParams.get("moves") === l, m.join(","), { timeout: 5000 });
  await idle(page).catch(() => {});
  const nested = [m[0], a2, b3].join(",");
  check(await page.$(`#moves li.var .subvar button[data-line="${nested}"]`), `the nested variation is not shown: "${await page.textContent("#moves")}"`);
  console.log("nested variation: " + (await page.textContent("#moves")).replace(/\s+/g, " "));
  await page.click(`#moves li.var .subvar button[data-line="${nested}"]`);
  await page.waitForFunction((l) => new URL(document.getElementById("link").value).searchParams.get("moves") === l, nested, { timeout: 5000 })
    .catch(async () => fail(`the nested variation's move did not show its line: ${await page.inputValue("#link")}`));
  await page.evaluate(() => { document.getElementById("legalbox").open = false; });

  // Clocks: a reload keeps both as they stood.
  await newGame(page, "jungle-checkers", "none");
  await page.selectOption("#clock", "3+2");
  await page.waitForFunction(() => /White 3:00/.test(document.getElementById("clock-white").textContent));
  await page.evaluate(() => { S.clock.white = 42500; S.clock.black = 100000; });
  await page.reload();
  await page.waitForSelector("#board rect.sq");
  await idle(page);
  const [w, b] = [await page.textContent("#clock-white"), await page.textContent("#clock-black")];
  check(/White 0:(4[0-3])/.test(w) && /Black 1:40/.test(b), `a reload did not keep the clocks: ${w} | ${b}`);
  console.log(`clocks after a reload: ${w} | ${b}`);
  await page.selectOption("#clock", "");
}

// The tree, the review and the clocks in each of the four games (the
// journeys above look at each closely in one or two): three moves, a
// variation from the first, shown and made the main line; the game
// reviewed (a point of the graph a position); a 1+1 clock: the side to
// move's runs, a move adds its increment, a flag fall ends the game.
async function everyGameTreeReviewClock(page) {
  for (const game of GAMES) {
    await newGame(page, game, "none");
    await page.evaluate(() => { document.getElementById("legalbox").open = true; });
    const play = (pick) => playPicked(page, pick);
    const main = [await play((l) => l[0]), await play((l) => l[0]), await play((l) => l[0])];
    await page.click('#moves button[data-i="0"]');
    await page.waitForFunction(() => document.querySelector('#moves button[data-i="0"][aria-current]'));
    const side = await play((l) => l.find((x) => x !== main[1]));
    const kept = await page.$$eval("#moves li.var button", (bs) => bs.map((b) => b.dataset.line));
    check(kept.includes(main.join(",")), `${game}: the old line is not kept as a variation: ${kept.join(" | ")}`);
    await page.click("#promote");
    check(await page.isDisabled("#promote"), `${game}: Make main line left the line a variation`);
    check((await page.$$eval("#moves button[data-i]", (bs) => bs.map((b) => b.dataset.i))).length === 2, `${game}: the line shown is not ${main[0]} ${side}`);

    await page.click("#reviewgame");
    await page.waitForFunction(() => /^Reviewed:/.test(document.getElementById("reviewtext").textContent), null, { timeout: 15000 })
      .catch(async () => fail(`${game}: the review did not end: "${await page.textContent("#reviewtext")}"`));
    check((await page.$$("#reviewgraph circle")).length === 3, `${game}: the graph has not a point for each of the 3 positions`);

    await page.selectOption("#clock", "1+1");
    const toMove = await page.evaluate(() => S.view.side), other = toMove === "white" ? "black" : "white";
    await page.waitForFunction((s) => /running/.test(document.getElementById("clock-" + s).getAttribute("aria-label")), toMove, { timeout: 3000 })
      .catch(() => fail(`${game}: the clock of the side to move (${toMove}) does not run`));
    await play((l) => l[0]);
    const after = await page.evaluate((s) => S.clock[s], toMove);
    check(after > 60000, `${game}: the mover's clock after a move and its increment: ${after} ms`);
    await page.evaluate((s) => { S.clock[s] = 1200; }, other);
    await page.waitForFunction(() => document.body.dataset.mode === "over", null, { timeout: 5000 })
      .catch(() => fail(`${game}: no flag fall`));
    check(new RegExp(`${other[0].toUpperCase() + other.slice(1)}'s time ran out`).test(await message(page)), `${game}: the flag fall: "${await message(page)}"`);
    await page.selectOption("#clock", "");
    await page.evaluate(() => { document.getElementById("legalbox").open = false; });
  }
}

// A game from the keyboard alone: Tab to the board, arrows, Enter.
async function keyboardGame(page) {
  await newGame(page, "jungle-checkers", "white");
  await page.selectOption("#movetime", "200");
  await setFen(page, FINAL["jungle-checkers"][0]);
  await page.focus("#movetime");
  // From the control before it, Tab reaches the board.
  for (let i = 0; i < 10 && !(await page.evaluate(() => document.activeElement.id === "board")); i++) await page.keyboard.press("Tab");
  check(await page.evaluate(() => document.activeElement.id === "board"), "Tab does not reach the board");
  // Black plays, so the board is turned and the focus starts on a1,
  // Black's elephant; b1 is to its left as the board is seen. (Jungle
  // Checkers' elephant is 4, its strongest of four: the page once named
  // it 8 from Jungle's table.)
  const label = () => page.getAttribute("#board", "aria-label");
  check(/square a1, Black elephant 4/.test(await label()), "the keyboard focus does not name a1's elephant: " + (await label()));
  await page.keyboard.press("Enter");
  await page.keyboard.press("ArrowLeft");
  check(/square b1, empty/.test(await label()), "the focus did not reach b1: " + (await label()));
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.body.dataset.mode === "over", null, { timeout: 5000 });
  console.log("keyboard game: " + (await page.$eval("#moves", (e) => e.textContent)) + " — " + (await message(page)) + " | announced: " + (await page.textContent("#live")));
}

// Every game at 390×844: no horizontal scroll, a screenshot; axe-core
// finds no serious or critical violation (WCAG 2.1 A and AA rules), at
// both sizes, in the light and the dark scheme, playing and editing.
async function phoneAndAxe(context) {
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  // The dark scheme (prefers-color-scheme: dark) at both sizes too.
  const phoneDark = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, colorScheme: "dark" });
  const desktopDark = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "dark" });
  for (const [ctx, size] of [[phone, "phone"], [context, "desktop"], [phoneDark, "phone dark"], [desktopDark, "desktop dark"]]) {
    const page = await ctx.newPage();
    page.on("pageerror", (e) => fail("page error: " + e.message));
    for (const game of GAMES) {
      await page.goto(`${url}?game=${game}`);
      await page.waitForSelector("#board rect.sq");
      await page.waitForFunction(() => ["idle", "over", "thinking"].includes(document.body.dataset.mode));
      await page.selectOption("#engine", "none");
      await idle(page);
      const [sw, w] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
      check(sw <= w, `${game} ${size}: ${sw} px wide in a ${w} px window`);
      const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      check(size.endsWith("dark") === (bg === "rgb(22, 24, 27)"), `${game} ${size}: the page's background is ${bg}`);
      if (size.startsWith("phone")) {
        await page.evaluate(() => window.scrollTo(0, 0));
        if (size === "phone") await page.screenshot({ path: `${shots}/${game}-phone.png`, fullPage: false });
        const small = await page.$$eval("button:not([hidden]), select, summary", (es) => es.filter((e) => e.offsetParent && (e.getBoundingClientRect().height < 44)).map((e) => e.id || e.textContent));
        check(small.length === 0, `${game}: touch targets under 44 px: ${small.join(", ")}`);
        // A select shows its value whole (its text no wider than its box)
        // and is not squeezed; the squares are touch targets too.
        const cut = await page.$$eval("select", (es) => es.filter((e) => e.offsetParent && (e.getBoundingClientRect().width < 90 || e.scrollWidth > e.clientWidth + 1)).map((e) => `${e.id} ${e.getBoundingClientRect().width.toFixed(0)} px`));
        check(cut.length === 0, `${game}: selects cut short or squeezed: ${cut.join(", ")}`);
        const sq = await page.$eval("#board rect.sq", (r) => r.getBoundingClientRect().width);
        check(sq >= 44, `${game}: squares of ${sq.toFixed(1)} px on a phone`);
      }
      await page.addScriptTag({ path: axePath });
      const r = await page.evaluate(() => window.axe.run(document, { runOnly: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] }));
      const bad = r.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      check(bad.length === 0, `${game} ${size}: axe: ${bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join("; ")}`).join(" | ")}`);
      console.log(`${game} ${size}: ${sw} px wide, axe: ${r.violations.length} violations, ${bad.length} serious or critical`);
      // The editor, with its row of pieces under the board.
      await page.click("#edit");
      await page.waitForFunction(() => document.body.dataset.mode === "editing" && document.querySelector("#palettepieces button"));
      const [esw, ew] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
      check(esw <= ew, `${game} ${size}, editing: ${esw} px wide in a ${ew} px window`);
      const smallPieces = await page.$$eval("#palettepieces button", (es) => es.filter((e) => e.getBoundingClientRect().height < 44 || e.getBoundingClientRect().width < 44).length);
      check(smallPieces === 0, `${game} ${size}: ${smallPieces} of the editor's pieces under 44 px`);
      const re = await page.evaluate(() => window.axe.run(document, { runOnly: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] }));
      const badEdit = re.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      check(badEdit.length === 0, `${game} ${size}, editing: axe: ${badEdit.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join("; ")}`).join(" | ")}`);
      await page.click("#editcancel");
      await idle(page);
    }
    await page.close();
  }
  for (const c of [phone, phoneDark, desktopDark]) await c.close();
}
