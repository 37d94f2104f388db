// mjenv replay viewer: steps through the frames that `mjenv view` computed with the engine.
// Every state shown comes from the embedded data; this script only lays it out and moves
// between frames (nothing about the rules is worked out here).
"use strict";
(function () {
  const DATA = JSON.parse(document.getElementById("data").textContent);
  const WINDS = DATA.wind_names, NAMES = DATA.tile_names;
  const $ = (id) => document.getElementById(id);

  // Whether the .zh font stack has Chinese glyphs here: a character it lacks is drawn as the
  // same box (or nothing) as a code point no font has, so the two pictures are then equal.
  function hasCjk() {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 40;
    const ctx = canvas.getContext("2d");
    const probe = document.createElement("span");
    probe.className = "zh";
    document.body.appendChild(probe);
    ctx.font = "28px " + getComputedStyle(probe).fontFamily;
    probe.remove();
    const picture = (text) => {
      ctx.clearRect(0, 0, 40, 40);
      ctx.fillText(text, 4, 32);
      return ctx.getImageData(0, 0, 40, 40).data.join(",");
    };
    return picture("\u9f99") !== picture("\u{10fffd}");    // 龙, a private-use code point
  }
  const cjk = hasCjk();
  document.body.classList.toggle("no-cjk", !cjk);

  // Every frame with its full state (the data holds only what changed) and the settlement
  // so far in its hand.
  const flat = [];
  DATA.hands.forEach((hand, h) => {
    let state = {}, settle = null;
    hand.frames.forEach((frame, f) => {
      state = Object.assign({}, state, frame.state);
      if (frame.settle) settle = Object.assign({}, settle || {}, frame.settle);
      flat.push({hand: h, index: f, frame: frame, state: state, settle: settle});
    });
  });

  let view = "open";          // "open" or a seat 0-3
  let visible = [];           // indexes into flat that this view shows
  let pos = 0;                // index into visible
  let timer = null;

  function seesFrame(frame) {
    return view === "open" || !frame.seen || frame.seen.includes(Number(view));
  }
  function computeVisible() {
    visible = [];
    flat.forEach((item, i) => { if (seesFrame(item.frame)) visible.push(i); });
    const slider = $("slider");
    slider.max = String(visible.length - 1);
  }

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function tile(t, classes, sideways) {
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("class", "tile " + (classes || "") + (sideways ? " side" : ""));
    svg.setAttribute("viewBox", sideways ? "0 0 42 30" : "0 0 30 42");
    const use = document.createElementNS(ns, "use");
    use.setAttribute("href", "#" + (t === null ? "tb" : (sideways ? "r" : "t") + t));
    svg.appendChild(use);
    if (t !== null) {
      const title = document.createElementNS(ns, "title");
      title.textContent = NAMES[t];
      svg.appendChild(title);
    }
    svg.dataset.tile = t === null ? "" : NAMES[t];
    return svg;
  }
  function signed(n) { return (n > 0 ? "+" : n < 0 ? "\u2212" : "+") + Math.abs(n); }

  function revealed(item, seat) {
    // Whose concealed tiles this view may show: all when open; its own; winners at the end.
    if (view === "open" || Number(view) === seat) return true;
    const settle = item.settle;
    return !!(settle && settle.wins && settle.wins.some((w) => w.seat === seat));
  }

  function drawSeat(item, seat) {
    const hand = DATA.hands[item.hand], st = item.state, frame = item.frame;
    const box = $("seat" + seat);
    box.textContent = "";
    box.classList.toggle("acting", frame.seats.includes(seat));
    const head = el("div", "head");
    const wind = WINDS[(seat - hand.dealer + 4) % 4];
    const name = el("span", "name", "seat " + seat + " \u00b7 " + wind);
    if (seat === hand.dealer) name.appendChild(el("span", "badge", "dealer"));
    if (st.furiten[seat] && (view === "open" || Number(view) === seat))
      name.appendChild(el("span", "badge furiten", "furiten"));
    head.appendChild(name);
    head.appendChild(el("span", "score", signed(st.scores[seat])));
    box.appendChild(head);

    const row = el("div", "row hand");
    const tiles = st["h" + seat].slice();
    let drawn = st.d[seat];
    if (drawn !== null && tiles.indexOf(drawn) >= 0) tiles.splice(tiles.indexOf(drawn), 1);
    else drawn = null;
    const show = revealed(item, seat);
    // the tile a discard or kan decision takes: the drawn one if it is that tile (tsumogiri)
    const pick = show && frame.pick && frame.pick[0] === seat ? frame.pick[1] : null;
    const pickDrawn = pick !== null && pick === drawn;
    let marked = pickDrawn;
    tiles.forEach((t) => {
      const mark = !marked && t === pick;
      marked = marked || mark;
      row.appendChild(tile(show ? t : null, mark ? "pick" : ""));
    });
    if (drawn !== null) {
      row.appendChild(tile(show ? drawn : null, "drawn" + (pickDrawn ? " pick" : "")));
    }
    const settle = item.settle;
    if (settle && settle.kind === "ron" && settle.wins.some((w) => w.seat === seat)) {
      row.appendChild(tile(NAMES.indexOf(settle.tile), "drawn win"));   // the tile ronned
    }
    box.appendChild(row);

    const melds = st["m" + seat];
    if (melds.length) {
      const mrow = el("div", "row melds");
      melds.forEach((m) => {
        const group = el("span", "meld");
        let marked = false;
        m.tiles.forEach((t, i) => {
          const back = m.kind === "ankan" && (i === 0 || i === 3);
          const side = !marked && m.called !== null && t === m.called;
          marked = marked || side;
          group.appendChild(tile(back ? null : t, "small", side));
        });
        group.title = m.kind + (m.from !== null ? " from seat " + m.from : "");
        mrow.appendChild(group);
      });
      box.appendChild(mrow);
    }
    box.appendChild(el("div", "label", "river"));
    const river = el("div", "row river");
    st["p" + seat].forEach((p) => {
      river.appendChild(tile(p[0], "small" + (p[1] ? " tsumogiri" : "") + (p[2] ? " called" : "")));
    });
    box.appendChild(river);
  }

  function frameText(frame) {
    if (view !== "open" && frame.private && !frame.private.includes(Number(view)))
      return frame.public;
    return frame.text;
  }

  function drawSettle(item) {
    const box = $("settle"), settle = item.settle;
    box.textContent = "";
    box.hidden = !settle;
    if (!settle) return;
    (settle.wins || []).forEach((w) => {
      box.appendChild(el("h3", "", "seat " + w.seat + " wins: " + w.points + " points (" +
                                   w.shape + ")"));
      const table = el("table", "yaku");
      const head = el("tr");
      ["yaku", cjk ? "" : "yaku", "", "points"].forEach((h, i) => {
        head.appendChild(el("th", i === 3 ? "num" : i === 0 ? "zh" : "", h));
      });
      table.appendChild(head);
      w.yaku.forEach((y) => {
        const tr = el("tr");
        tr.appendChild(el("td", "zh", y[1]));
        tr.appendChild(el("td", "", y[2]));
        tr.appendChild(el("td", "roman", y[0]));
        tr.appendChild(el("td", "num", String(y[3])));
        table.appendChild(tr);
      });
      const total = el("tr");
      total.appendChild(el("th", "zh", "total P"));
      total.appendChild(el("th", "", cjk ? "" : "total P"));
      total.appendChild(el("th"));
      total.appendChild(el("th", "num", String(w.points)));
      table.appendChild(total);
      box.appendChild(table);
    });
    if (!cjk && (settle.wins || []).length) {
      const note = el("div", "", "(no Chinese font found: the romanised names are shown; a " +
                      "CJK font such as Noto Sans CJK shows the Chinese ones)");
      note.id = "fontnote";
      box.appendChild(note);
    }
    if (settle.kind === "draw") box.appendChild(el("h3", "", "exhaustive draw: no payments"));
    if (settle.deltas) {
      box.appendChild(el("h3", "", "payments" + (settle.bonus ? " (dealer seat " + settle.dealer +
                                              ", dealer bonus D = " + settle.bonus + ")" : "")));
      const table = el("table", "payments");
      const heads = el("tr"), deltas = el("tr"), scores = el("tr");
      heads.appendChild(el("th", "", ""));
      deltas.appendChild(el("th", "", "change"));
      scores.appendChild(el("th", "", "score after"));
      for (let s = 0; s < 4; s++) {
        heads.appendChild(el("th", "num", "seat " + s));
        deltas.appendChild(el("td", "num delta", signed(settle.deltas[s])));
        if (settle.scores) scores.appendChild(el("td", "num", signed(settle.scores[s])));
      }
      table.appendChild(heads);
      table.appendChild(deltas);
      if (settle.scores) table.appendChild(scores);
      box.appendChild(table);
    }
    if (settle.ranking) {
      const final = el("div", "final");
      final.id = "final";
      final.textContent = "final scores: " + settle.scores.map((s, i) => "seat " + i + " " +
        signed(s)).join(", ") + " \u00b7 ranking " + settle.ranking.join(" > ");
      box.appendChild(final);
    }
  }

  function drawEvents(item) {
    const list = $("events");
    const hand = DATA.hands[item.hand];
    $("handTitle").textContent = "hand " + hand.number + " of " + DATA.hands.length +
      ": " + hand.round + " round, dealer seat " + hand.dealer;
    if (list.dataset.hand !== String(item.hand) || list.dataset.view !== String(view)) {
      list.textContent = "";
      list.dataset.hand = String(item.hand);
      list.dataset.view = String(view);
      visible.forEach((i, v) => {
        if (flat[i].hand !== item.hand) return;
        const li = el("li", "", frameText(flat[i].frame));
        li.value = flat[i].index + 1;
        li.dataset.pos = String(v);
        li.addEventListener("click", () => go(v));
        list.appendChild(li);
      });
    }
    list.querySelectorAll("li.current").forEach((li) => li.classList.remove("current"));
    const cur = list.querySelector('li[data-pos="' + pos + '"]');
    if (cur) {
      cur.classList.add("current");
      cur.scrollIntoView({block: "nearest"});
    }
  }

  function draw() {
    const item = flat[visible[pos]];
    const hand = DATA.hands[item.hand];
    for (let s = 0; s < 4; s++) drawSeat(item, s);
    $("round").textContent = hand.round + " round \u00b7 hand " + hand.number + "/" +
      DATA.hands.length + " \u00b7 dealer seat " + hand.dealer + " \u00b7 repeat " + hand.repeat;
    $("wall").textContent = "live wall " + item.state.wall;
    $("event").textContent = frameText(item.frame);
    drawSettle(item);
    drawEvents(item);
    $("slider").value = String(pos);
    $("pos").textContent = "event " + (pos + 1) + " / " + visible.length +
      " \u00b7 hand " + hand.number + " / " + DATA.hands.length;
    document.body.dataset.pos = String(pos);
    document.body.dataset.frames = String(visible.length);
  }

  function go(p) {
    pos = Math.max(0, Math.min(visible.length - 1, p));
    draw();
  }
  function step(d) { go(pos + d); }
  function jumpHand(d) {
    const h = flat[visible[pos]].hand;
    if (d < 0) {
      // to this hand's start, or the previous hand's start when already there
      let p = pos;
      while (p > 0 && flat[visible[p - 1]].hand === h) p--;
      if (p === pos && p > 0) {
        const prev = flat[visible[p - 1]].hand;
        p--;
        while (p > 0 && flat[visible[p - 1]].hand === prev) p--;
      }
      go(p);
    } else {
      let p = pos;
      while (p < visible.length - 1 && flat[visible[p]].hand === h) p++;
      go(flat[visible[p]].hand === h ? visible.length - 1 : p);
    }
  }
  function setView(v) {
    const current = visible[pos];
    view = v;
    $("view").value = v;
    computeVisible();
    let p = 0;
    visible.forEach((i, k) => { if (i <= current) p = k; });
    go(p);
  }
  function togglePlay() {
    if (timer) {
      clearInterval(timer);
      timer = null;
      $("play").textContent = "\u25b6 play";
      return;
    }
    $("play").textContent = "\u25a0 pause";
    timer = setInterval(() => {
      if (pos >= visible.length - 1) togglePlay(); else step(1);
    }, 700);
  }

  $("first").addEventListener("click", () => go(0));
  $("last").addEventListener("click", () => go(visible.length - 1));
  $("prev").addEventListener("click", () => step(-1));
  $("next").addEventListener("click", () => step(1));
  $("prevHand").addEventListener("click", () => jumpHand(-1));
  $("nextHand").addEventListener("click", () => jumpHand(1));
  $("play").addEventListener("click", togglePlay);
  $("slider").addEventListener("input", (e) => go(Number(e.target.value)));
  $("view").addEventListener("change", (e) => setView(e.target.value));
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "SELECT" || e.target.tagName === "INPUT") return;
    const keys = {
      ArrowRight: () => (e.shiftKey ? jumpHand(1) : step(1)),
      ArrowLeft: () => (e.shiftKey ? jumpHand(-1) : step(-1)),
      PageDown: () => jumpHand(1), PageUp: () => jumpHand(-1),
      Home: () => go(0), End: () => go(visible.length - 1),
      " ": togglePlay,
      v: () => setView(view === "open" ? "0" : view === "3" ? "open" : String(Number(view) + 1)),
    };
    const action = keys[e.key];
    if (action) {
      e.preventDefault();
      action();
    }
  });

  const kind = DATA.match ? "match" : "hand";
  $("title").textContent = "mjenv replay \u00b7 " + (DATA.title ? DATA.title + " \u00b7 " : "") +
    kind + ", " + DATA.hands.length + " hand" + (DATA.hands.length > 1 ? "s" : "") +
    " \u00b7 min_points " + DATA.rules.min_points +
    (DATA.match ? ", rounds " + DATA.rules.rounds : "");
  if (DATA.cut) {
    $("banner").hidden = false;
    $("banner").textContent = "This log stops in the middle of hand " + DATA.hands.length +
      ": the last frames are the last events it holds.";
  }
  setView(DATA.view === undefined || DATA.view === null ? "open" : String(DATA.view));
  go(0);
})();
