// Draws any game from two messages: the ruleset (static declarations, item catalogue, layout hints) and
// a state payload (what this page's audience may see). No game is named here: zones, counters and
// components are drawn from their declarations; layout hints only reorder, group and colour them.
"use strict";

const Board = (() => {
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));

  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "text") e.textContent = v;
      else if (k === "onclick") e.addEventListener("click", v);
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const kid of kids.flat()) if (kid !== null && kid !== undefined) e.append(kid);
    return e;
  }

  // An encoded language value (players, components, zones, maps) as text.
  function value(v, rs) {
    if (v === null || v === undefined) return "–";
    if (v === true) return "yes";
    if (v === false) return "no";
    if (Array.isArray(v)) return v.length ? v.map((x) => value(x, rs)).join(", ") : "–";
    if (typeof v === "object") {
      if ("$p" in v) return "P" + (v.$p + 1);
      // A seat's view names a component by its item; the view of everything, by its id.
      if ("$c" in v) return v.$c === "?" ? "(hidden)" : typeof v.$c === "string" ? ((rs && rs.items && rs.items[v.$c]) || {}).name || v.$c : "#" + v.$c;
      if ("$z" in v) return String(v.$z);
      if ("$m" in v) return v.$m.map(([k, x]) => value(k, rs) + ": " + value(x, rs)).join(", ") || "–";
      return JSON.stringify(v);
    }
    return String(v);
  }

  const layoutOf = (rs) => rs.layout || {};

  // A colour from the layout hints: by item id, kind, name, or any attribute value of the item.
  function colourOf(rs, c) {
    const colours = layoutOf(rs).colours || {};
    const item = rs.items[c.item] || {};
    const keys = [c.item, c.kind, c.name, ...Object.values(item.attrs || {}).map(String)];
    for (const k of keys) if (k in colours) return colours[k];
    const attr = layoutOf(rs).colour_attribute;
    if (attr && item.attrs && typeof item.attrs[attr] === "string") return item.attrs[attr];
    return null;
  }

  function iconOf(rs, c) {
    const icons = layoutOf(rs).icons || {};
    return icons[c.item] || icons[c.kind] || "";
  }

  function hover(rs, c) {
    const item = rs.items[c.item];
    if (!item) return c.name;
    const lines = [item.name + " (" + item.kind + (item.count > 1 ? ", " + item.count + " copies" : "") + ")"];
    if (item.description) lines.push(item.description);
    const attrs = Object.entries(item.attrs).map(([k, v]) => k + ": " + value(v, rs));
    if (attrs.length) lines.push(attrs.join(" · "));
    for (const [when, script] of Object.entries(item.effects)) lines.push((when ? when + ": " : "") + script);
    if (c.counters) for (const [k, v] of Object.entries(c.counters)) lines.push(k + " = " + value(v, rs));
    return lines.join("\n");
  }

  const isEmpty = (v) => v === null || (Array.isArray(v) && !v.length) || (v && v.$m && !v.$m.length);

  function component(rs, c) {
    if (c.hidden) {  // what its kind prints on the back, if anything (`back`), is all that shows
      const back = Object.entries(c.back || {}).map(([k, v]) => k + " " + value(v, rs)).join(", ");
      return el("span", {class: "comp back", title: "face down: you cannot see what it is"},
                "face down" + (back ? " (" + back + ")" : "") + (c.times > 1 ? " ×" + c.times : ""));
    }
    const colour = colourOf(rs, c);
    const node = el("span", {class: "comp" + (c.facedown ? " facedown" : ""), title: hover(rs, c),
                             "data-item": c.item, style: colour ? "--c:" + colour : null},
                    (iconOf(rs, c) ? iconOf(rs, c) + " " : "") + c.name);
    if (c.facedown) node.append(el("em", {text: " (face down)"}));
    const extras = [];
    if (c.status) extras.push(el("small", {class: "status-note", text: String(c.status)}));  // the kind's display status
    for (const [k, v] of Object.entries(c.counters || {})) if (!isEmpty(v)) extras.push(el("small", {class: "ctr", text: k + " " + value(v, rs)}));
    for (const [k, z] of Object.entries(c.slots || {})) {
      if (Array.isArray(z) && !z.length) continue;
      extras.push(el("span", {class: "slot"}, el("small", {text: k + ": "}), zoneItems(rs, z)));
    }
    if (extras.length) node.append(el("span", {class: "extras"}, extras));
    if (c.times > 1) node.append(el("b", {class: "times", text: " ×" + c.times}));
    return node;
  }

  // Neighbouring components that look the same (same item, same counters and contents) are drawn
  // once with a count: 9 tokens, not nine chips.
  // A zone marked `display: counts` is a pile where only how many of each matter: all alike, not just
  // neighbours, are counted together.
  function grouped(items, counts) {
    const out = [];
    const seen = new Map();
    for (const c of items) {
      const last = out[out.length - 1];
      const look = c.hidden ? JSON.stringify(["hidden", c.back || null]) : JSON.stringify([c.item, !!c.facedown, c.counters || null, c.slots || null]);
      const same = counts ? seen.get(look) : last && last.look === look ? last : null;
      if (same) { same.n += 1; continue; }
      const entry = {c, n: 1, look};
      out.push(entry);
      seen.set(look, entry);
    }
    return out.map(({c, n}) => (n > 1 ? {...c, times: n} : c));
  }

  function zoneItems(rs, z, counts) {
    if (!Array.isArray(z) && !z.count) return el("span", {class: "empty", text: "empty"});
    if (!Array.isArray(z)) {  // hidden: only the number, and on a `top` pile the top one's back
      const top = z.top ? Object.entries(z.top.back || {}).map(([k, v]) => k + " " + value(v, rs)).join(", ") : "";
      return el("span", {class: "comp back", title: "hidden: only the number is known"}, z.count + " hidden" + (top ? ", the top one face down (" + top + ")" : ""));
    }
    if (!z.length) return el("span", {class: "empty", text: "empty"});
    return el("span", {class: "items"}, grouped(z, counts).map((c) => component(rs, c)));
  }

  function zone(rs, name, z, decl) {
    const count = Array.isArray(z) ? z.length : z.count;
    return el("div", {class: "zone", "data-zone": name, title: (decl && decl.description) || null},
              el("div", {class: "zname"}, name, el("small", {text: " " + count + (decl && decl.visibility !== "public" ? " · " + decl.visibility : "")})),
              zoneItems(rs, z, decl && decl.display === "counts"));
  }

  function counters(rs, ctrs, decls) {
    const hidden = new Set(layoutOf(rs).hide || []);
    const shown = ([k]) => !hidden.has(k) && !(decls[k] && decls[k].display === "internal");
    return el("div", {class: "counters"}, Object.entries(ctrs).filter(shown).map(([k, v]) =>
      el("span", {class: "counter", "data-counter": k, title: (decls[k] && decls[k].description) || null},
         el("small", {text: k + " "}), el("b", {text: value(v, rs)}))));
  }

  // Zones in the order the layout names them (then the rest), grouped under titles if it says so.
  function zones(rs, zs, decls, scope) {
    const lay = layoutOf(rs);
    const hide = new Set(["box", ...(lay.hide || [])]);  // the interpreter's box of unused components
    const order = lay.order || [];
    const names = Object.keys(zs).filter((n) => !hide.has(n) && !(decls[n] && decls[n].display === "internal"));
    names.sort((a, b) => (order.includes(a) ? order.indexOf(a) : 1e6) - (order.includes(b) ? order.indexOf(b) : 1e6));
    const groups = (lay.groups || []).filter((g) => (g.scope || "game") === scope);
    const used = new Set();
    const out = [];
    for (const n of names) {  // a group is drawn where its first zone comes in the order
      if (used.has(n)) continue;
      const g = groups.find((x) => (x.zones || []).includes(n));
      if (!g) { out.push(zone(rs, n, zs[n], decls[n])); continue; }
      const members = (g.zones || []).filter((m) => names.includes(m));
      members.forEach((m) => used.add(m));
      out.push(el("fieldset", {class: "group"}, el("legend", {text: g.title || ""}), members.map((m) => zone(rs, m, zs[m], decls[m]))));
    }
    return el("div", {class: "zones"}, out);
  }

  function seatPanel(rs, st, seat) {
    const dec = st.decision;
    const who = st.seats[seat.seat] || {};
    const deciding = dec && dec.waiting_for.includes(seat.seat);
    const chosen = dec && dec.chosen.includes(seat.seat);
    const tags = [who.kind === "bot" ? "bot (" + who.agent + (who.budget != null ? ", budget " + who.budget : "") + ")" : "person"];
    if (st.you === seat.seat) tags.unshift("you");
    if (deciding) tags.push(dec.sealed ? "choosing in secret" : "to move");
    if (chosen) tags.push("has chosen (sealed)");
    if (st.view.winners && st.view.winners.includes(seat.seat)) tags.push("winner");
    return el("section", {class: "seat" + (st.you === seat.seat ? " you" : "") + (deciding ? " turn" : ""), "data-seat": seat.seat},
              el("h3", {}, seat.name, el("small", {text: " " + tags.join(" · ")})),
              counters(rs, seat.counters, rs.counters.player), zones(rs, seat.zones, rs.zones.player, "player"));
  }

  function status(st) {
    const v = st.view;
    if (v.over) return "Game over";
    const dec = st.decision;
    if (!dec) return "";
    const names = dec.waiting_for.map((s) => "P" + (s + 1) + (st.seats[s] && st.seats[s].kind === "bot" ? " (bot)" : ""));
    if (st.you !== null && dec.waiting_for.includes(st.you)) return "Your turn" + (dec.prompt ? ": " + dec.prompt : "");
    return "Waiting for " + names.join(", ") + (dec.prompt ? " — " + dec.prompt : "");
  }

  // The seat's own option controls as last drawn into each root, with what they offered: a redraw that
  // offers the same options (bots chose at a sealed decision while the person reads the menu) keeps
  // these very elements, so a click that lands while the table redraws still reaches its button.
  const drawnOptions = new WeakMap();

  // The controls of the options `dec` offers: the prompt, a button per option, a number box per range.
  function options(dec, act) {
    const nodes = [];
    if (dec.prompt) nodes.push(el("h4", {text: dec.prompt}));
    for (const a of dec.actions) {
      if (a.type === "button") {
        nodes.push(el("button", {class: "act", "data-index": a.index, disabled: !act, onclick: () => act && act(a.index)}, a.label));
      } else {
        const input = el("input", {type: "number", min: a.min, max: a.max, value: a.min, class: "range", "aria-label": a.labels[0] + " … " + a.labels[1]});
        // An empty box (also what a number box holds for text that is no number) is refused, not read
        // as 0 (Number("") === 0), which would send the smallest choice.
        const go = el("button", {class: "act range-go", disabled: !act, onclick: () => {
          const n = input.value.trim() === "" ? NaN : Number(input.value);
          if (Number.isInteger(n) && n >= a.min && n <= a.max) {
            if (act) act(a.first + n - a.min);
          } else {
            input.setCustomValidity("a whole number from " + a.min + " to " + a.max);
            input.reportValidity();
          }
        }}, "Choose");
        input.addEventListener("input", () => input.setCustomValidity(""));
        nodes.push(el("div", {class: "rangebox"}, el("label", {text: a.labels[0] + " … " + a.labels[1] + ": "}), input, go));
      }
    }
    return nodes;
  }

  // The seat's own legal actions: buttons, one number input per range, a note for sealed choices.
  function actions(st, act, root) {
    const dec = st.decision;
    const box = el("div", {class: "actions"});
    const last = drawnOptions.get(root);
    drawnOptions.delete(root);  // kept only from one draw to the next
    if (!dec) return box;
    if (dec.sealed) box.append(el("p", {class: "sealed", text: "Sealed choice: nobody sees what anyone chose until everyone has chosen." +
      (dec.chosen.length ? " Chosen so far: " + dec.chosen.map((s) => "P" + (s + 1)).join(", ") + "." : "")}));
    if (st.you !== null && dec.chosen.includes(st.you)) box.append(el("p", {class: "note", text: "You have chosen; waiting for the others."}));
    if (dec.menus) for (const [s, labels] of Object.entries(dec.menus))
      box.append(el("details", {}, el("summary", {text: "P" + (+s + 1) + "'s options (" + labels.length + ")"}), el("ul", {}, labels.map((l) => el("li", {text: l})))));
    if (!dec.actions) return box;
    const offered = JSON.stringify([dec.prompt, dec.actions, !!act]);
    const kept = last && last.offered === offered ? last : {offered, nodes: options(dec, act)};
    drawnOptions.set(root, kept);
    box.append(...kept.nodes);
    return box;
  }

  // The end screen, as `meeple play` shows it: places (ties share one), scores, tie-break values, which
  // tie-breaks decided, and where each player's points came from.
  function scores(st) {
    const v = st.view, res = st.results;
    if (!v.over || !res) return null;
    const you = (s) => "P" + (s + 1) + (st.you === s ? " (you)" : "");
    const head = el("tr", {}, el("th", {text: "place"}), el("th", {text: "seat"}), el("th", {text: "score"}),
                    res.tiebreaks.map((t) => el("th", {text: t})), el("th", {text: ""}));
    const rows = res.ranking.map((r) => el("tr", {class: res.winners.includes(r.seat) ? "winner" : null},
      el("td", {text: r.place}), el("td", {text: you(r.seat)}), el("td", {text: r.score}),
      r.tiebreaks.map((x) => el("td", {text: x})),
      el("td", {text: res.winners.includes(r.seat) ? (res.winners.length > 1 ? "shared win" : "winner") : ""})));
    const box = el("div", {class: "results"}, el("table", {class: "scores"}, head, rows));
    if (res.tiebreak_used) box.append(el("p", {class: "note", text: "Tie-break applied: " +
      res.tiebreaks.slice(0, res.tiebreak_used).join(", ") + " (the leaders were tied on score)."}));
    if (res.breakdown) box.append(el("h4", {text: "Where the " + res.counters.join(", ") + " came from"}),
      el("ul", {class: "breakdown"}, res.breakdown.map((row, s) => el("li", {text: you(s) + ": " +
        (row.length ? row.map(([src, n]) => src + " " + (n > 0 ? "+" : "") + n).join("; ") : "nothing")}))));
    return box;
  }

  function log(st) {
    const lines = st.view.log || [];
    const ol = el("ul", {class: "log"}, lines.length ? lines.map((t) => el("li", {text: t})) : el("li", {class: "empty", text: "nothing yet"}));
    return el("aside", {class: "logbox"}, el("h3", {text: "Log"}), ol);
  }

  function povName(p) {
    return p === -2 ? "everything (omniscient)" : p === -1 ? "public (any spectator)" : "P" + (p + 1);
  }

  // The whole table into `root`. `act(index)` sends a move, or is null (replays, spectators).
  // A redraw replaces the whole table, and bots may move while a person is typing a number (at a sealed
  // choice, everyone decides at once): what the person typed into a range that is still on offer, which
  // option lists they opened, and where the cursor was are carried over, so a redraw never changes the
  // number a click on "Choose" sends.
  function keepTyping(root) {
    const typed = new Map();
    for (const i of root.querySelectorAll(".actions input.range")) typed.set(i.getAttribute("aria-label"), i.value);
    const opened = new Set([...root.querySelectorAll(".actions details[open] summary")].map((s) => s.textContent));
    const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement.getAttribute("aria-label") : null;
    return () => {
      for (const i of root.querySelectorAll(".actions input.range")) {
        const label = i.getAttribute("aria-label");
        if (typed.has(label)) i.value = typed.get(label);
        if (label === focused) i.focus();
      }
      for (const s of root.querySelectorAll(".actions details summary")) if (opened.has(s.textContent)) s.parentNode.open = true;
    };
  }

  function render(root, rs, st, act) {
    const restore = keepTyping(root);
    const v = st.view;
    const head = el("header", {class: "tablehead"},
                    el("h2", {}, rs.name, el("small", {text: v.phase && !v.over ? "  · phase " + v.phase : ""})),
                    el("p", {class: "status", text: status(st)}),
                    el("p", {class: "who", text: "Shown: " + povName(st.you !== null ? st.you : st.audience === "omniscient" ? -2 : -1)}));
    const game = el("section", {class: "gamezone"}, el("h3", {text: "Table"}), counters(rs, v.counters, rs.counters.game),
                    zones(rs, v.zones, rs.zones.game, "game"));
    const seats = el("div", {class: "seats"}, v.seats.map((s) => seatPanel(rs, st, s)));
    const acts = actions(st, act, root);
    const main = el("div", {class: "main"}, el("div", {class: "board"}, scores(st), game, seats),
                    el("div", {class: "side"}, acts.childElementCount ? acts : null, log(st)));
    root.replaceChildren(head, main);
    restore();
    const ol = root.querySelector(".log");
    if (ol) ol.scrollTop = ol.scrollHeight;
  }

  return {render, el, esc, value, povName};
})();
