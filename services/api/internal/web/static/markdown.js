// A safe Markdown subset for the vibe-coding widget, rendered as DOM nodes (never as HTML):
// paragraphs, headings (shown as bold lines), emphasis, inline code, fenced code blocks,
// bullet and numbered lists, block quotes, pipe tables, and links to relative paths. Raw HTML
// stays text, images show their alt text, links anywhere else show their text. Also a small
// syntax highlighter for code and diff snippets.
"use strict";

(function () {
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  // ---- inline ----

  // A relative path: no scheme, not rooted, not protocol-relative, only path characters.
  const RELATIVE = /^(?![a-z][a-z0-9+.-]*:)(?![\/\\])[\w.~\-\/%#?=&+@]+$/i;

  const INLINE = [
    { re: /^`([^`\n]+)`/, make: (m) => el("code", "md-code", m[1]) },
    { re: /^!\[([^\]\n]*)\]\(((?:[^()\s]|\([^()\s]*\))*)\)/, make: (m) => document.createTextNode(m[1]) },
    { re: /^\[([^\]\n]+)\]\(((?:[^()\s]|\([^()\s]*\))*)\)/, make: (m) => link(m[1], m[2]) },
    { re: /^\*\*(?=\S)([^\n]*?\S)\*\*/, make: (m) => wrap("strong", m[1]) },
    { re: /^__(?=\S)([^\n]*?\S)__(?!\w)/, make: (m) => wrap("strong", m[1]) },
    { re: /^~~(?=\S)([^\n]*?\S)~~/, make: (m) => wrap("del", m[1]) },
    { re: /^\*(?=[^\s*])([^\n*]*?[^\s*])\*/, make: (m) => wrap("em", m[1]) },
    { re: /^_(?=[^\s_])([^\n_]*?[^\s_])_(?!\w)/, make: (m) => wrap("em", m[1]) },
  ];

  function link(text, href) {
    if (!RELATIVE.test(href) || href.includes("..\\")) return document.createTextNode(text);
    const a = el("a", "md-link", text);
    a.href = href;
    a.rel = "nofollow noreferrer";
    return a;
  }

  function wrap(tag, inner) {
    const node = el(tag);
    appendInline(node, inner);
    return node;
  }

  // appendInline adds text with inline markup to parent.
  function appendInline(parent, text) {
    let plain = "";
    let i = 0;
    const flush = () => {
      if (plain) parent.appendChild(document.createTextNode(plain));
      plain = "";
    };
    while (i < text.length) {
      const c = text[i];
      if (c === "\\" && i + 1 < text.length && /[\\`*_\[\]()#!~|>-]/.test(text[i + 1])) {
        plain += text[i + 1];
        i += 2;
        continue;
      }
      if ("`*_[!~".includes(c) && (c !== "_" || i === 0 || !/\w/.test(text[i - 1]))) {
        const rest = text.slice(i);
        let matched = false;
        for (const rule of INLINE) {
          const m = rule.re.exec(rest);
          if (m) {
            flush();
            parent.appendChild(rule.make(m));
            i += m[0].length;
            matched = true;
            break;
          }
        }
        if (matched) continue;
      }
      plain += c;
      i++;
    }
    flush();
  }

  // ---- blocks ----

  const FENCE = /^\s{0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/;
  const BULLET = /^(\s*)[-*+]\s+(.*)$/;
  const NUMBERED = /^(\s*)(\d{1,9})[.)]\s+(.*)$/;
  const HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/;
  const QUOTE = /^\s{0,3}>\s?(.*)$/;
  const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
  const TABLE_SEP = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

  // render returns a DocumentFragment for Markdown text.
  function render(text) {
    const frag = document.createDocumentFragment();
    const lines = String(text || "").replace(/\r\n?/g, "\n").split("\n");
    let i = 0;
    while (i < lines.length) {
      const line = lines[i];
      if (!line.trim()) { i++; continue; }
      let m;
      if ((m = FENCE.exec(line))) {
        const fence = m[1];
        const body = [];
        i++;
        while (i < lines.length && !lines[i].trim().startsWith(fence)) body.push(lines[i++]);
        i++;
        frag.appendChild(codeBlock(body.join("\n"), m[2]));
        continue;
      }
      if ((m = HEADING.exec(line))) {
        const h = el("p", "md-heading");
        appendInline(h, m[1]);
        frag.appendChild(h);
        i++;
        continue;
      }
      if (RULE.test(line)) { frag.appendChild(el("hr", "md-rule")); i++; continue; }
      if (QUOTE.test(line)) {
        const body = [];
        while (i < lines.length && (m = QUOTE.exec(lines[i]))) { body.push(m[1]); i++; }
        const q = el("blockquote", "md-quote");
        q.appendChild(render(body.join("\n")));
        frag.appendChild(q);
        continue;
      }
      if (line.includes("|") && i + 1 < lines.length && TABLE_SEP.test(lines[i + 1])) {
        const rows = [line];
        i += 2;
        while (i < lines.length && lines[i].includes("|") && lines[i].trim()) rows.push(lines[i++]);
        frag.appendChild(table(rows));
        continue;
      }
      if (BULLET.test(line) || NUMBERED.test(line)) {
        i = list(lines, i, frag);
        continue;
      }
      const para = [];
      while (i < lines.length && lines[i].trim() && !FENCE.test(lines[i]) && !HEADING.test(lines[i]) &&
        !BULLET.test(lines[i]) && !NUMBERED.test(lines[i]) && !QUOTE.test(lines[i]) &&
        !(lines[i].includes("|") && i + 1 < lines.length && TABLE_SEP.test(lines[i + 1]))) {
        para.push(lines[i++].trim());
      }
      const p = el("p", "md-p");
      para.forEach((l, k) => {
        if (k) p.appendChild(document.createElement("br"));
        appendInline(p, l);
      });
      frag.appendChild(p);
    }
    return frag;
  }

  // list reads a bullet or numbered list (nested by indentation) starting at line i.
  function list(lines, i, parent) {
    const first = BULLET.exec(lines[i]) || NUMBERED.exec(lines[i]);
    const ordered = !BULLET.test(lines[i]);
    const indent = first[1].length;
    const ul = el(ordered ? "ol" : "ul", "md-list");
    if (ordered && first[2] !== "1") ul.start = parseInt(first[2], 10);
    let li = null;
    while (i < lines.length) {
      const line = lines[i];
      if (!line.trim()) {
        if (i + 1 < lines.length && (BULLET.test(lines[i + 1]) || NUMBERED.test(lines[i + 1]))) { i++; continue; }
        break;
      }
      const m = (ordered ? NUMBERED : BULLET).exec(line);
      const other = (ordered ? BULLET : NUMBERED).exec(line);
      const lead = line.length - line.trimStart().length;
      if (m && lead === indent) {
        li = el("li");
        appendInline(li, ordered ? m[3] : m[2]);
        ul.appendChild(li);
        i++;
      } else if ((m || other) && lead > indent && li) {
        i = list(lines, i, li);
      } else if (lead > indent && li) {
        li.appendChild(document.createTextNode(" "));
        appendInline(li, line.trim());
        i++;
      } else {
        break;
      }
    }
    parent.appendChild(ul);
    return i;
  }

  function cells(row) {
    let r = row.trim();
    if (r.startsWith("|")) r = r.slice(1);
    if (r.endsWith("|") && !r.endsWith("\\|")) r = r.slice(0, -1);
    return r.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, "|"));
  }

  function table(rows) {
    const wrapEl = el("div", "md-table-wrap");
    const t = el("table", "md-table");
    const head = el("thead");
    const tr = el("tr");
    for (const c of cells(rows[0])) {
      const th = el("th");
      th.scope = "col";
      appendInline(th, c);
      tr.appendChild(th);
    }
    head.appendChild(tr);
    t.appendChild(head);
    const body = el("tbody");
    for (const row of rows.slice(1)) {
      const r = el("tr");
      for (const c of cells(row)) {
        const td = el("td");
        appendInline(td, c);
        r.appendChild(td);
      }
      body.appendChild(r);
    }
    t.appendChild(body);
    wrapEl.appendChild(t);
    return wrapEl;
  }

  function codeBlock(code, lang) {
    const pre = el("pre", "md-pre");
    const c = el("code");
    highlightInto(c, code, lang);
    pre.appendChild(c);
    return pre;
  }

  // ---- highlighting ----

  const KEYWORDS = {
    go: "break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var nil true false err",
    js: "async await break case catch class const continue default delete do else export extends false finally for from function if import in instanceof let new null of return static super switch this throw true try typeof undefined var void while yield",
    py: "and as assert async await break class continue def del elif else except False finally for from global if import in is lambda None nonlocal not or pass raise return self True try while with yield",
    rs: "as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type unsafe use where while",
    rb: "begin break case class def defined? do else elsif end ensure false for if in module next nil not or redo rescue retry return self super then true undef unless until when while yield",
    c: "auto break case char const continue default do double else enum extern float for goto if inline int long register return short signed sizeof static struct switch typedef union unsigned void volatile while class namespace public private protected template this true false nullptr new delete",
    sh: "if then else elif fi for while do done case esac function in return local export echo cd",
    ex: "def defp defmodule do end if else unless case cond fn when with import alias require use true false nil",
  };
  const LANG = { go: "go", js: "js", jsx: "js", ts: "js", tsx: "js", mjs: "js", cjs: "js", javascript: "js", typescript: "js", json: "js",
    py: "py", python: "py", rs: "rs", rust: "rs", rb: "rb", ruby: "rb", c: "c", h: "c", cc: "c", cpp: "c", hpp: "c", java: "c", kt: "c", cs: "c", swift: "c",
    sh: "sh", bash: "sh", zsh: "sh", shell: "sh", ex: "ex", exs: "ex", elixir: "ex" };
  const HASH_COMMENT = { py: true, rb: true, sh: true, ex: true };
  const keywordSets = {};

  function language(name) {
    const key = LANG[String(name || "").toLowerCase().replace(/^.*\./, "")];
    if (!key) return null;
    if (!keywordSets[key]) keywordSets[key] = new Set(KEYWORDS[key].split(" "));
    return key;
  }

  const TOKEN = /(\/\/.*$|#.*$|--\s.*$|\/\*.*?\*\/)|("(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|`[^`]*`?)|(\b\d[\d_.xXa-fA-F]*\b)|([A-Za-z_][\w?]*)/g;

  // highlightLine appends one line of code as text and token spans.
  function highlightLine(parent, line, lang) {
    if (!lang) { parent.appendChild(document.createTextNode(line)); return; }
    const words = keywordSets[lang];
    let last = 0;
    TOKEN.lastIndex = 0;
    let m;
    while ((m = TOKEN.exec(line))) {
      let cls = null;
      if (m[1]) {
        const hash = m[1][0] === "#";
        const dashes = m[1].startsWith("--");
        if ((hash && !HASH_COMMENT[lang]) || (dashes && lang !== "sql")) { continue; }
        if (!hash && !dashes && m[1].startsWith("//") && HASH_COMMENT[lang]) { continue; }
        cls = "tok-comment";
      } else if (m[2]) cls = "tok-string";
      else if (m[3]) cls = "tok-number";
      else if (m[4] && words.has(m[4])) cls = "tok-keyword";
      if (!cls) continue;
      if (m.index > last) parent.appendChild(document.createTextNode(line.slice(last, m.index)));
      parent.appendChild(el("span", cls, m[0]));
      last = m.index + m[0].length;
      if (cls === "tok-comment") break;
    }
    if (last < line.length) parent.appendChild(document.createTextNode(line.slice(last)));
  }

  // highlightInto fills a <code> element. A snippet that opens with "@@" is a diff: each
  // line is marked added, removed or context, and the code after the marker is highlighted.
  function highlightInto(code, text, langName) {
    const lang = language(langName);
    const lines = String(text || "").split("\n");
    const diff = lines[0] && lines[0].startsWith("@@");
    lines.forEach((line, k) => {
      if (diff) {
        if (k === 0) { code.appendChild(el("span", "diff-hunk", line)); return; }
        const mark = line[0];
        const row = el("span", mark === "+" ? "diff-add" : mark === "-" ? "diff-del" : "diff-ctx");
        row.appendChild(el("span", "diff-mark", mark === "+" || mark === "-" ? mark : " "));
        highlightLine(row, line.slice(1), lang);
        code.appendChild(row);
        return; // rows are blocks: no line break between them
      }
      highlightLine(code, line, lang);
      if (k < lines.length - 1) code.appendChild(document.createTextNode("\n"));
    });
  }

  window.OpenVibeText = { render: render, appendInline: appendInline, highlightInto: highlightInto, isRelative: (h) => RELATIVE.test(h) };
})();
