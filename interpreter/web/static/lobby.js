"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const { el } = Board;
  let info = null;

  function showError(body) {
    const box = $("error");
    box.textContent = body ? body.error + (body.hint ? " (" + body.hint + ")" : "") : "";
    box.hidden = !body;
  }

  async function post(url, data) {
    const r = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(data)});
    const body = await r.json();
    if (!r.ok) { showError(body); return null; }
    showError(null);
    return body;
  }

  const current = () => info.rulesets.find((r) => r.id === $("ruleset").value);

  function seatRow(i, old) {
    const kind = el("select", {class: "kind", "aria-label": "seat " + (i + 1) + " played by"},
                    el("option", {value: "person"}, "a person"), el("option", {value: "bot"}, "a bot"));
    const bot = el("select", {class: "agent", "aria-label": "seat " + (i + 1) + " bot"}, info.bots.map((b) => el("option", {value: b}, b)));
    const budget = el("input", {class: "budget", type: "number", min: 1, max: info.max_budget, step: 1, placeholder: "n/a", "aria-label": "seat " + (i + 1) + " budget"});
    kind.value = old ? old.kind : (i === 0 ? "person" : "bot");
    if (old) bot.value = old.agent;
    const sync = () => {
      bot.disabled = kind.value !== "bot";
      budget.disabled = kind.value !== "bot" || !info.budgets[bot.value];
      budget.placeholder = info.budgets[bot.value] ? "budget" : "n/a";
    };
    kind.addEventListener("change", sync);
    bot.addEventListener("change", sync);
    sync();
    return el("tr", {}, el("td", {text: "P" + (i + 1)}), el("td", {}, kind), el("td", {}, bot), el("td", {}, budget));
  }

  function drawSeats() {
    const tbody = $("seats").querySelector("tbody");
    const old = [...tbody.querySelectorAll("tr")].map((tr) => ({kind: tr.querySelector(".kind").value, agent: tr.querySelector(".agent").value}));
    const n = Math.max(1, Math.min(9, Number($("players").value) || 1));
    tbody.replaceChildren(...Array.from({length: n}, (_, i) => seatRow(i, old[i])));
  }

  function pickRuleset() {
    const r = current();
    $("description").textContent = r.error ? "invalid: " + r.error : r.description;
    $("players").min = r.min || 1;
    $("players").max = r.max || 9;
    const n = Number($("players").value);
    if (r.min && (n < r.min || n > r.max)) $("players").value = Math.min(Math.max(n, r.min), r.max);
    drawSeats();
  }

  async function load(selected) {
    info = await (await fetch("/api/lobby")).json();
    const groups = {file: [], game: [], variant: []};
    for (const r of info.rulesets) groups[r.file ? "file" : r.variant ? "variant" : "game"].push(r);
    $("ruleset").replaceChildren(...Object.entries({file: "Your files", game: "Games", variant: "Variants"}).filter(([k]) => groups[k].length).map(([k, title]) =>
      el("optgroup", {label: title}, groups[k].map((r) => el("option", {value: r.id}, r.title + (r.min ? " (" + r.min + "–" + r.max + ")" : "") + " · " + r.id)))));
    if (selected) $("ruleset").value = selected;
    pickRuleset();
  }

  $("ruleset").addEventListener("change", pickRuleset);
  $("players").addEventListener("input", drawSeats);

  $("new").addEventListener("submit", async (e) => {
    e.preventDefault();
    const seats = [...$("seats").querySelectorAll("tbody tr")].map((tr) => ({
      kind: tr.querySelector(".kind").value, agent: tr.querySelector(".agent").value,
      budget: tr.querySelector(".budget").disabled ? null : tr.querySelector(".budget").value || null}));
    const hotseat = document.querySelector("input[name=mode]:checked").value === "hotseat";
    const res = await post("/api/tables", {ruleset: $("ruleset").value, seats, seed: Number($("seed").value), hotseat, speed: Number($("speed").value)});
    if (!res) return;
    if (hotseat || !res.seats.length) {
      location.href = res.host;
      return;
    }
    if (res.seats.length === 1) {  // straight to the one person's seat, which keeps the spectators' link
      location.href = res.seats[0].link + "#spectators=" + encodeURIComponent(res.host);
      return;
    }
    $("links").hidden = false;
    $("linklist").replaceChildren(...res.seats.map((s) => el("li", {}, s.name + ": ", el("a", {href: s.link, class: "seatlink", target: "_blank"}, location.origin + s.link))),
                                  el("li", {}, "spectators (public view): ", el("a", {href: res.host, class: "hostlink", target: "_blank"}, location.origin + res.host)));
  });

  $("upload").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = $("upload-file").files[0];
    if (!f) return;
    const res = await post("/api/upload", {filename: f.name, text: await f.text()});
    if (res) await load(res.id);
  });

  $("save").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = $("save-file").files[0];
    if (!f) return;
    const res = await post("/api/saves", {text: await f.text()});
    if (res) location.href = res.replay;
  });

  load();
})();
