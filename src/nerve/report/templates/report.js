// The nerve HTML report's instance browser, inlined into the page.
// Each .browser reads its instances from the JSON element its data-source names (columns, one
// entry per instance; see nerve/report/instances.py) and draws one page of the instances that
// pass the category and type filters. Text from the corpus is only ever set with textContent.
"use strict";
(function () {
  const LONG = 120; // characters of a token shown whole
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function typeName(data, t) {
    if (t < 0) return "-";
    const name = data.types[t];
    return name === "" ? '""' : name;
  }

  // A token as text; a very long one is cut in the middle, whole in its tooltip.
  function token(word) {
    const chars = Array.from(word);
    if (chars.length <= LONG) return el("span", "tok", word);
    const node = el("span", "tok long", chars.slice(0, LONG - 20).join("") + "\u2026" + chars.slice(-19).join(""));
    node.title = word;
    return node;
  }

  function option(value, text) {
    const node = el("option", null, text);
    node.value = String(value);
    return node;
  }

  // The entities of one side in instance i's window, as [start, end, type, category, own].
  function entitiesOf(data, side, i) {
    const off = data[side + "_off"], out = [];
    for (let k = off[i]; k < off[i + 1]; k++) {
      out.push([data[side + "_start"][k], data[side + "_end"][k], data[side + "_type"][k],
        data[side + "_cat"][k], data[side + "_own"][k]]);
    }
    return out;
  }

  // One line of the window's words with one side's entities marked.
  function sentenceLine(data, side, i) {
    const line = el("div", "sentence " + side);
    line.append(el("span", "side", side === "g" ? "gold" : "pred"));
    const first = data.w_off[i], length = data.w_off[i + 1] - first;
    const at = new Array(length).fill(-1);
    const ents = entitiesOf(data, side, i);
    ents.forEach(function (e, k) {
      for (let j = Math.max(e[0], 0); j < Math.min(e[1], length); j++) at[j] = k;
    });
    if (data.cut_left[i]) line.append(el("span", "cut", "\u2026 "));
    let j = 0;
    while (j < length) {
      const k = at[j];
      let end = j + 1;
      while (k >= 0 && end < length && at[end] === k) end++;
      const holder = k >= 0 ? el("span", "ent cat-" + data.categories[ents[k][3]] + (ents[k][4] ? " own" : "")) : line;
      for (let m = j; m < end; m++) {
        if (m > j) holder.append(" ");
        holder.append(token(data.vocab[data.words[first + m]]));
      }
      if (k >= 0) {
        holder.title = data.categories[ents[k][3]].replace("_", " ");
        holder.append(el("span", "lab", typeName(data, ents[k][2])));
        line.append(holder);
      }
      line.append(" ");
      j = end;
    }
    if (data.cut_right[i]) line.append(el("span", "cut", "\u2026"));
    return line;
  }

  // The offsets and types of an instance of a span file, which has no tokens.
  function spanTable(data, i) {
    const table = el("table", "spans");
    [["gold", "gs", "ge", "gt"], ["pred", "ps", "pe", "pt"]].forEach(function (s) {
      if (data[s[1]][i] < 0) return;
      const row = el("tr");
      row.append(el("th", null, s[0]));
      row.append(el("td", null, "[" + data[s[1]][i] + ", " + data[s[2]][i] + ")"));
      row.append(el("td", "label", typeName(data, data[s[3]][i])));
      table.append(row);
    });
    return table;
  }

  // One side of a span file's instance in its document's text: the text before, the entity
  // (marked, with its type) and the text after; the other side's text, unmarked, where this side
  // has no entity. pieces[side][i] is [before, entity, after] (nerve/report/browser.py).
  function textLine(data, side, i) {
    const line = el("div", "sentence text " + side);
    line.append(el("span", "side", side === "g" ? "gold" : "pred"));
    if (data.cut_left[i]) line.append(el("span", "cut", "\u2026"));
    const own = data[side + "_text"][i], other = data[(side === "g" ? "p" : "g") + "_text"][i];
    if (own) {
      line.append(el("span", "tok", own[0]));
      const ent = el("span", "ent own cat-" + data.categories[data.cat[i]]);
      ent.append(el("span", "tok", own[1]));
      ent.append(el("span", "lab", typeName(data, data[side + "t"][i])));
      ent.title = data.categories[data.cat[i]].replace("_", " ");
      line.append(ent);
      line.append(el("span", "tok", own[2]));
    } else if (other) {
      line.append(el("span", "tok", other.join("")));
    }
    if (data.cut_right[i]) line.append(el("span", "cut", "\u2026"));
    return line;
  }

  function instance(data, i) {
    const category = data.categories[data.cat[i]];
    const item = el("li", "instance cat-" + category);
    item.dataset.category = category;
    item.dataset.type = String(data.type[i]);
    const meta = el("div", "meta");
    meta.append(el("span", "badge cat-" + category, category.replace("_", " ")));
    let types = typeName(data, data.gt[i]);
    if (data.pt[i] >= 0 && data.gt[i] >= 0) types += " \u2192 " + typeName(data, data.pt[i]);
    if (data.gt[i] < 0) types = typeName(data, data.pt[i]);
    meta.append(el("span", "label", types));
    if (data.boundary[i] >= 0) meta.append(el("span", null, data.boundary_names[data.boundary[i]].replace("_", " ")));
    if (data.overlapping[i]) meta.append(el("span", null, "overlapping"));
    let where = "document " + (data.doc[i] + 1);
    if (data.kind === "tokens") where = data.source + ":" + data.line[i] + ", " + where + ", sentence " + (data.sentence[i] + 1);
    else if (data.doc_names) where = data.doc_names[data.doc[i]];
    meta.append(el("span", "where", where));
    item.append(meta);
    if (data.kind === "tokens") {
      item.append(sentenceLine(data, "g", i));
      item.append(sentenceLine(data, "p", i));
    } else {
      if (data.g_text && (data.g_text[i] || data.p_text[i])) {
        item.append(textLine(data, "g", i));
        item.append(textLine(data, "p", i));
      }
      item.append(spanTable(data, i));
    }
    return item;
  }

  function setup(browser) {
    const data = JSON.parse(document.getElementById(browser.dataset.source).textContent);
    const pageSize = Number(browser.dataset.pageSize) || 50;
    const byCategory = browser.querySelector(".filter-category");
    const byType = browser.querySelector(".filter-type");
    const list = browser.querySelector("ol.instances");
    const status = browser.querySelector(".status");
    const prev = browser.querySelector(".prev"), next = browser.querySelector(".next");
    data.categories.forEach(function (c, k) {
      if (c !== "correct") byCategory.append(option(k, c.replace("_", " ")));
    });
    data.types.forEach(function (t, k) { byType.append(option(k, typeName(data, k))); });
    let page = 0;

    function chosen() {
      const c = byCategory.value === "" ? -1 : Number(byCategory.value);
      const t = byType.value === "" ? -1 : Number(byType.value);
      const rows = [];
      for (let i = 0; i < data.n; i++) {
        if ((c < 0 || data.cat[i] === c) && (t < 0 || data.type[i] === t)) rows.push(i);
      }
      let total = 0;
      data.totals.forEach(function (counts, k) {
        if (data.categories[k] === "correct" || (c >= 0 && k !== c)) return;
        counts.forEach(function (n, u) { if (t < 0 || u === t) total += n; });
      });
      return { rows: rows, total: total };
    }

    function draw() {
      const found = chosen();
      const pages = Math.max(1, Math.ceil(found.rows.length / pageSize));
      page = Math.min(page, pages - 1);
      const shown = found.rows.slice(page * pageSize, (page + 1) * pageSize);
      list.replaceChildren.apply(list, shown.map(function (i) { return instance(data, i); }));
      status.dataset.embedded = String(found.rows.length);
      status.dataset.total = String(found.total);
      status.dataset.visible = String(shown.length);
      const range = shown.length ? (page * pageSize + 1) + "\u2013" + (page * pageSize + shown.length) : "0";
      status.textContent = "Showing " + found.rows.length.toLocaleString("en") + " of " +
        found.total.toLocaleString("en") + (found.total === 1 ? " error" : " errors") +
        (pages > 1 ? " (" + range + " on page " + (page + 1) + " of " + pages + ")" : "") + ".";
      prev.disabled = page === 0;
      next.disabled = page >= pages - 1;
    }

    byCategory.addEventListener("change", function () { page = 0; draw(); });
    byType.addEventListener("change", function () { page = 0; draw(); });
    prev.addEventListener("click", function () { page -= 1; draw(); });
    next.addEventListener("click", function () { page += 1; draw(); });
    draw();
  }

  document.querySelectorAll(".browser").forEach(setup);
})();
