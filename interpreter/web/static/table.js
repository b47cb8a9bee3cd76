// A live table: one websocket; the server sends the ruleset once, then this page's payload after every
// change. The page holds nothing the server did not send it for its own audience.
"use strict";

(() => {
  const token = location.pathname.split("/").pop();
  const root = document.getElementById("root");
  const errorBox = document.getElementById("error");
  const controls = document.getElementById("controls");
  const handover = document.getElementById("handover");
  let ruleset = null;
  let state = null;
  let ws = null;
  let gone = false;  // the server said this link leads to no table

  document.getElementById("replay-link").href = "/replay/" + token;
  // The lobby sends the one person of a game against bots straight here, with the spectators' link
  // (public view only) after the # (never sent to the server): it stays offered here.
  const spectators = new URLSearchParams(location.hash.slice(1)).get("spectators");
  if (spectators && spectators.startsWith("/table/")) {
    const a = document.getElementById("spectator-link");
    a.href = spectators;
    a.hidden = false;
  }

  function send(msg) { ws.send(JSON.stringify(msg)); }

  function showError(text) {
    errorBox.textContent = text;
    errorBox.hidden = !text;
  }

  // The controls are drawn again only when what they show changes: a select being opened or a slider
  // being dragged must not be replaced under the pointer each time a bot moves.
  let controlsShown = null;
  function drawControls(st) {
    const t = st.table;
    const shown = JSON.stringify([t.povs, st.you, st.audience, t.bots_only && !st.view.over, t.speed, t.paused]);
    if (shown === controlsShown) return;
    controlsShown = shown;
    const { el, povName } = Board;
    const parts = [];
    if (t.povs.length > 1) {
      const sel = el("select", {id: "pov", "aria-label": "point of view"}, t.povs.map((p) =>
        el("option", {value: p, selected: (st.you !== null ? st.you : st.audience === "omniscient" ? -2 : -1) === p}, "View: " + povName(p))));
      sel.addEventListener("change", () => send({type: "pov", pov: Number(sel.value)}));
      parts.push(sel);
    }
    if (t.bots_only && !st.view.over) {
      const speed = el("input", {id: "speed", type: "range", min: 0, max: 3, step: 0.1, value: t.speed, "aria-label": "seconds per move"});
      const label = el("span", {text: t.speed.toFixed(1) + " s/move"});
      speed.addEventListener("input", () => { label.textContent = Number(speed.value).toFixed(1) + " s/move"; });
      speed.addEventListener("change", () => send({type: "speed", speed: Number(speed.value)}));
      const pause = el("button", {id: "pause", onclick: () => send({type: "pause", paused: !t.paused})}, t.paused ? "Resume" : "Pause");
      parts.push(el("span", {class: "speed"}, "Speed ", speed, label, pause));
    }
    controls.replaceChildren(...parts);
    const save = document.getElementById("save-link");
    save.hidden = !t.povs.includes(-2);
    save.href = "/api/save/" + token;
  }

  // The step of the state on screen, not of the newest message: a message may arrive between a frame
  // and a click, and the click means an option of the menu the person saw.
  let drawn = null;
  let drawnMsg = null;
  // A move on its way: until a state that includes it arrives (the seat's count of moves has grown),
  // the menu stays greyed. A state the server sent before it applied the move (bots moved meanwhile)
  // would otherwise show, for a moment, the menu the move has already answered.
  let pending = null;
  function act(index) {
    showError("");
    send({type: "act", step: drawn, index});
    pending = {seat: drawnMsg.you, moves: drawnMsg.moves + 1};
    document.body.dataset.sent = drawn;  // lets people (and tests) see a move is on its way
    redraw();  // grey the menu at once: a second click must not send a second move
  }

  function redraw() {
    if (state && !drawing) { drawing = true; requestAnimationFrame(draw); }
  }

  function onMessage(ev) {
    const msg = JSON.parse(ev.data);
    if (msg.type === "ruleset") { ruleset = msg; document.title = "Meeple · " + msg.name; return; }
    if (msg.type === "error" && msg.final) {  // a wrong link: nothing to load, nothing to reconnect to
      gone = true;
      root.replaceChildren(Board.el("p", {class: "error", text: msg.message}));
      document.getElementById("conn").textContent = "";
      return;
    }
    if (msg.type === "error") {
      showError(msg.message);
      if (pending) { pending = null; redraw(); }  // the move was refused: the menu is the person's again
      return;
    }
    if (msg.type === "handover") {
      state = null;
      pending = null;  // a hand-over comes once the move is in: another person decides now
      drawing = false;
      root.replaceChildren();
      document.body.dataset.step = "handover";
      controls.replaceChildren();
      controlsShown = null;
      document.getElementById("handover-title").textContent = "Pass the screen to " + msg.name;
      document.getElementById("handover-go").textContent = "I am " + msg.name + ": show my seat";
      document.getElementById("handover-go").onclick = () => send({type: "ready", seat: msg.to});
      handover.hidden = false;
      return;
    }
    if (msg.type === "state") {
      state = msg;
      // Bots can move faster than a page draws: draw only the newest state, once per frame.
      redraw();
    }
  }

  let drawing = false;
  function draw() {
    drawing = false;
    const msg = state;
    if (!msg) return;  // a hand-over came after this frame was asked for
    handover.hidden = true;
    if (pending && (msg.you !== pending.seat || msg.moves >= pending.moves)) pending = null;
    // A game a rules error stopped offers no move, and says why (found by QA: the table was left stuck).
    const mine = msg.you !== null && msg.decision && msg.decision.actions && !msg.table.replay_only && !pending
      && !msg.table.stopped;
    if (msg.table.stopped) showError(msg.table.stopped);
    Board.render(root, ruleset, msg, mine ? act : null);
    drawn = msg.step;
    drawnMsg = msg;
    drawControls(msg);
    document.body.dataset.step = msg.step;  // lets people (and tests) see the page is up to date
    document.body.dataset.over = msg.view.over;
  }

  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(proto + "//" + location.host + "/ws/" + token);
    ws.onopen = () => { document.getElementById("conn").textContent = "connected"; };
    ws.onclose = () => { if (!gone) document.getElementById("conn").textContent = "disconnected (reload to reconnect)"; };
    ws.onmessage = onMessage;
  }
  connect();
})();
