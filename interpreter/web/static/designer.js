// The designer page: a `meeple compare` report (tools/compare.py) as tables, with its plot if the
// server has matplotlib; like the command, the variants that were not played (the base's rules) or not
// compared (a rules error stopped their games, located here), and what "not significant" leaves open.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const { el } = Board;
  const pct = (x) => (x === null || x === undefined ? "–" : (100 * x).toFixed(1) + "%");
  const num = (x, d = 1) => (x === null || x === undefined ? "–" : x.toFixed(d));

  function table(head, rows, cls) {
    return el("table", {class: "report " + (cls || "")}, el("tr", {}, head.map((h) => el("th", {text: h}))),
              rows.map((r) => el("tr", {class: r.cls || null}, r.cells.map((c) => el("td", {text: c})))));
  }

  function mark(d, what) {
    const row = d && d.rows.find((r) => r.what === what);
    return row ? (row.significant ? " *" : " ~") : "";
  }

  function render(res) {
    const sums = res.rulesets;
    const letters = sums.map((_, i) => String.fromCharCode(65 + i));
    const out = [el("p", {text: sums.length + " rulesets, " + res.players + " players, " + res.games + " games each on matched seeds (seed " + res.seed + "), bots " + res.agents.join(", ")}),
                 el("ul", {}, sums.map((s, i) => el("li", {text: letters[i] + " = " + s.ruleset + " (" + res.names[i] + ")" + (i ? "" : " [base]")})),
                    (res.skipped || []).map((s) => el("li", {class: "skipped", text: "not played: " + s.ruleset + " (" + s.name + "): the same rules as A, so its games would be A's"})),
                    (res.failed || []).map((f) => el("li", {class: "failed"}, "not compared: " + f.ruleset + " (" + f.name + "): a rules error stopped its games: ",
                                                      el("code", {text: f.error}), f.hint ? el("span", {class: "note", text: " (" + f.hint + ")"}) : null))),
                 el("p", {class: "note", text: "Marks against A: * significant (p < " + res.alpha + "), ~ not significant."})];
    const cells = (fn, what) => sums.map((s, i) => fn(s) + (i && what ? mark(res.differences[i - 1], what) : ""));
    const rows = [];
    for (let k = 0; k < res.players; k++)
      rows.push({cells: ["P" + (k + 1) + " win rate [95% CI]", ...cells((s) => pct(s.seats[k].win_rate) + " [" + pct(s.seats[k].win_ci[0]) + "–" + pct(s.seats[k].win_ci[1]) + "]", "P" + (k + 1) + " win rate")]});
    rows.push({cells: ["first-player advantage", ...cells((s) => (100 * s.first_player.advantage).toFixed(1) + " pts (p " + num(s.first_player.p, 2) + ")")]});
    rows.push({cells: ["score mean (sd)", ...cells((s) => num(s.score.mean) + " (" + num(s.score.sd) + ")", "score mean")]});
    rows.push({cells: ["winning margin (sd)", ...cells((s) => num(s.margin.mean) + " (" + num(s.margin.sd) + ")", "winning margin")]});
    rows.push({cells: ["game length, " + sums[0].length.unit + " (sd)", ...cells((s) => num(s.length.mean) + " (" + num(s.length.sd) + ")", "game length")]});
    rows.push({cells: ["decisions per game", ...cells((s) => num(s.decisions_mean, 0))]});
    out.push(el("h2", {text: "Summary"}), table(["", ...letters], rows));
    if (res.plot) out.push(el("img", {src: res.plot, alt: "score distributions and win rates by seat", class: "plot"}));
    out.push(el("h2", {text: "Differences against A"}),
             el("p", {class: "note", text: "Where a headline figure is not significant, \"inconclusive\" gives the smallest difference these games had a chance of " +
                                           Math.round(100 * (res.power || 0.8)) + "% to show (after the correction)."}));
    res.differences.forEach((d, i) => {
      out.push(el("h3", {text: letters[i + 1] + ": " + d.variant}));
      const rows = [];
      for (const r of d.rows.filter((r) => r.item === null || r.significant)) {
        rows.push({cls: r.significant ? "significant" : null,
                   cells: [r.what, num(r.base, 3), num(r.variant, 3), (r.diff >= 0 ? "+" : "") + num(r.diff, 3), num(r.p, 3), r.significant ? "significant" : "not significant"]});
        // What it leaves open, in the words of `meeple compare`: the server sends its sentence.
        if (r.inconclusive && r.inconclusive_text) rows.push({cls: "inconclusive", cells: ["", r.inconclusive_text]});
      }
      const t = table(["figure", "A", letters[i + 1], "difference", "p", ""], rows);
      t.querySelectorAll("tr.inconclusive td:last-child").forEach((td) => { td.colSpan = 5; td.style.textAlign = "left"; });
      out.push(t);
    });
    const items = Object.entries(sums[0].items).map(([item, b]) => ({cells: [item + " (" + b.kind + (b.copies > 1 ? " ×" + b.copies : "") + ")",
      ...sums.map((s) => (s.items[item] ? pct(s.items[item].held_rate) + " / " + pct(s.items[item].owner_win_rate) : "(removed)"))]}));
    out.push(el("h2", {text: "Items: held in how many games / their owners' win rate"}), table(["item", ...letters], items, "itemtable"));
    if (sums.some((s) => s.coverage)) {
      out.push(el("h2", {text: "Rules coverage: what never ran"}));
      sums.forEach((s, i) => out.push(el("p", {text: letters[i] + ": " + s.coverage.never_ran.length + " of " + s.coverage.units + " never ran" +
        (s.coverage.never_ran.length ? ": " + s.coverage.never_ran.map((u) => u.kind + " " + u.name).join(", ") : "")})));
    }
    $("report").replaceChildren(...out);
  }

  (async () => {
    const info = await (await fetch("/api/lobby")).json();
    const ok = info.rulesets.filter((r) => !r.error);
    $("base").replaceChildren(...ok.map((r) => el("option", {value: r.id}, r.title + " · " + r.id)));
    $("variants").replaceChildren(...ok.map((r) => el("option", {value: r.id}, r.title + " · " + r.id)));
  })();

  $("cmp").addEventListener("submit", async (e) => {
    e.preventDefault();
    $("busy").textContent = "playing…";
    $("run").disabled = true;
    const spec = {base: $("base").value, variants: [...$("variants").selectedOptions].map((o) => o.value),
                  players: $("players").value, games: $("games").value, seed: $("seed").value, agents: $("agents").value};
    // The boxes' text as typed: the server reads digits, and an empty box as the default (Number("") is 0).
    try {
      const r = await fetch("/api/compare", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(spec)});
      const body = await r.json();
      if (!r.ok) { $("error").textContent = body.error + (body.hint ? " (" + body.hint + ")" : ""); $("error").hidden = false; return; }
      $("error").hidden = true;
      render(body);
    } finally {
      $("busy").textContent = "";
      $("run").disabled = false;
    }
  });
})();
