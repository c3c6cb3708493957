// The web board's requests to the server (docs/web.md): JSON requests,
// the search streamed as server-sent events, and the retry of a 503. All
// of them can be aborted; errors carry the HTTP status (0: no answer).
"use strict";

// A request; throws an Error with `status` (0: no answer) and the server's
// message, with any server path left out.
async function api(path, body, signal) {
  let r;
  try {
    r = await fetch(path, body === undefined ? { signal } : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal });
  } catch (e) {
    if (signal && signal.aborted) throw new DOMException("aborted", "AbortError");
    throw Object.assign(new Error("the server does not answer"), { status: 0 });
  }
  const j = await r.json().catch(() => ({}));
  if (!r.ok) throw Object.assign(new Error(clean(j.error || "HTTP " + r.status)), { status: r.status });
  return j;
}
// Players are not shown where the server keeps its files.
function clean(msg) { return String(msg).replace(/ (in|at|under) \/[^\s:]*/g, ""); }
function sleep(ms, signal) {
  return new Promise((ok, no) => {
    const t = setTimeout(ok, ms);
    signal.addEventListener("abort", () => { clearTimeout(t); no(new DOMException("aborted", "AbortError")); }, { once: true });
  });
}
// Retries a 503 (every search slot busy) with backoff, saying so.
async function withRetry(what, signal, run) {
  for (let attempt = 0; ; attempt++) {
    try { return await run(); } catch (e) {
      if (e.name === "AbortError" || e.status !== 503 || attempt >= 7) throw e;
      const wait = Math.min(500 * 2 ** attempt, 5000);
      note(`The server is busy (every search slot taken); ${what} again in ${(wait / 1000).toFixed(1)} s…`);
      await sleep(wait, signal);
      note("");
    }
  }
}
// A search streamed as server-sent events over fetch (so that it can be
// aborted, which stops it on the server, and a 503 can be seen).
async function searchStream(params, signal, onIter) {
  const q = new URLSearchParams(params);
  let r;
  try { r = await fetch("/api/analyse/stream?" + q, { signal }); } catch (e) {
    if (signal.aborted) throw new DOMException("aborted", "AbortError");
    throw Object.assign(new Error("the server does not answer"), { status: 0 });
  }
  if (!r.ok) { const j = await r.json().catch(() => ({})); throw Object.assign(new Error(clean(j.error || "HTTP " + r.status)), { status: r.status }); }
  const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += value;
      let i;
      while ((i = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, i); buf = buf.slice(i + 2);
        let ev = "message", data = "";
        for (const line of block.split("\n")) {
          if (line.startsWith("event:")) ev = line.slice(6).trim();
          else if (line.startsWith("data:")) data += line.slice(5).trim();
        }
        if (ev === "iteration") onIter(JSON.parse(data));
        else if (ev === "result") { reader.cancel().catch(() => {}); return JSON.parse(data); }
      }
    }
  } catch (e) {
    if (e.name === "AbortError" || signal.aborted) throw new DOMException("aborted", "AbortError");
    throw Object.assign(new Error("the server stopped answering"), { status: 0 });
  }
  throw Object.assign(new Error("the search ended without a result"), { status: 0 });
}
