// The replay viewer: the server replays the game from its seed and action log to the chosen step and
// renders it for the chosen point of view (only those this link may see).
"use strict";

(() => {
  const token = location.pathname.split("/").pop();
  const $ = (id) => document.getElementById(id);
  let ruleset = null;
  let length = 0;
  let step = null;
  let pov = null;
  let pending = 0;

  $("live-link").href = "/table/" + token;

  async function show(newStep) {
    const ticket = ++pending;
    const q = new URLSearchParams();
    if (newStep !== null) q.set("step", newStep);
    if (pov !== null) q.set("pov", pov);
    const r = await fetch("/api/replay/" + token + "?" + q);
    const body = await r.json();
    if (ticket !== pending) return;  // a later request answers for the slider's newest position
    if (!r.ok) { $("error").textContent = body.error; $("error").hidden = false; return; }
    $("error").hidden = true;
    length = body.length;
    const st = body.payload;
    step = st.step;
    $("slider").max = length;
    $("slider").value = step;
    $("stepno").textContent = "step " + step + " / " + length;
    $("move").textContent = body.move ? "step " + step + " was " + body.move : "";
    const current = st.you !== null ? st.you : st.audience === "omniscient" ? -2 : -1;
    pov = current;
    $("pov").replaceChildren(...st.table.povs.map((p) => Board.el("option", {value: p, selected: p === current}, "View: " + Board.povName(p))));
    Board.render($("root"), ruleset, st, null);
    document.body.dataset.step = step;
  }

  const go = (s) => show(Math.max(0, Math.min(length, s)));
  $("first").onclick = () => go(0);
  $("back").onclick = () => go(step - 1);
  $("fwd").onclick = () => go(step + 1);
  $("last").onclick = () => go(length);
  $("slider").addEventListener("input", () => go(Number($("slider").value)));
  $("pov").addEventListener("change", () => { pov = Number($("pov").value); show(step); });
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    if (e.key === "ArrowLeft") go(step - 1);
    else if (e.key === "ArrowRight") go(step + 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(length);
  });

  (async () => {
    const r = await fetch("/api/ruleset/" + token);
    if (!r.ok) { $("root").textContent = "No such game: the link is wrong or the server was restarted."; return; }
    ruleset = await r.json();
    document.title = "Meeple · replay · " + ruleset.name;
    show(null);
  })();
})();
