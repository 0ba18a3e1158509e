// Shared by the viewer page, the overlay and the studio: renders vibe-coding events as DOM
// nodes (never as HTML: text goes in with textContent, Markdown through markdown.js), groups a
// tool call's start and end into one entry, and mirrors the server's viewer projection for the
// studio's live preview.
"use strict";

(function () {
  const ELLIPSIS = "\u2026";

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function chars(s) {
    return Array.from(s || "");
  }

  const WORD_BACKOFF = 24;

  function wordChar(ch) {
    return ch !== undefined && /^[\p{L}\p{Nd}_]$/u.test(ch);
  }

  // truncate cuts s to n characters, ending with an ellipsis when it cuts; a cut inside a
  // word moves back to the word's start when that is at most WORD_BACKOFF characters away
  // (server rule: vibe.Truncate).
  function truncate(s, n) {
    s = s || "";
    if (n <= 0) return "";
    const c = chars(s);
    if (c.length <= n) return s;
    const keep = Math.max(0, n - 1);
    let cut = keep;
    if (keep > 0 && wordChar(c[keep - 1]) && wordChar(c[keep])) {
      for (let k = keep, m = 0; k > 0 && m <= WORD_BACKOFF; m++) {
        if (!wordChar(c[k - 1])) {
          cut = k;
          break;
        }
        k--;
      }
    }
    return c.slice(0, cut).join("") + ELLIPSIS;
  }

  const TYPE_LABEL = {
    "prompt": "Prompt",
    "response": "Response",
    "thinking": "Thinking",
    "tool.call": "Tool",
    "file.change": "File",
    "file.save": "Saved",
    "session.status": "Session",
  };

  function publisherLabel(p) {
    if (!p) return "";
    return p.integrationLabel || p.clientName || p.integrationId || p.vendor || "";
  }

  function eventText(ev) {
    switch (ev.eventType) {
      case "prompt": return (ev.prompt && ev.prompt.text) || ev.summary || "";
      case "response": return (ev.response && ev.response.text) || ev.summary || "";
      case "thinking": return (ev.thinking && ev.thinking.text) || ev.summary || "";
      case "session.status":
        if (ev.status) return [ev.status.state, ev.status.message].filter(Boolean).join(": ") || ev.summary || "";
        return ev.summary || "";
      case "tool.call": {
        if (ev.summary) return ev.summary;
        if (ev.tool) return (ev.tool.phase === "start" ? "Running " : "Used ") + (ev.tool.name || "a tool");
        return "Used a tool";
      }
      case "file.change":
      case "file.save": {
        const f = ev.file || {};
        const where = f.relativePath || f.name || "";
        if (ev.summary) return ev.summary;
        return [f.operation || (ev.eventType === "file.save" ? "save" : "edit"), where].filter(Boolean).join(" ");
      }
    }
    return ev.summary || "";
  }

  function formatTime(iso) {
    if (!iso) return "";
    const d = new Date(iso);
    if (isNaN(d.getTime())) return "";
    return d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  }

  const MD = window.OpenVibeText;

  // ---- entries: a tool call's start and end are one entry ----

  // pairKey says which start an end can close: the same tool in the same session (and, when
  // both say, the same model response).
  function sameCall(start, end) {
    if (!start.tool || !end.tool || start.tool.name !== end.tool.name) return false;
    if (start.sessionId && end.sessionId && start.sessionId !== end.sessionId) return false;
    const a = start.metadata && start.metadata.responseId, b = end.metadata && end.metadata.responseId;
    return !a || !b || a === b;
  }

  // entries turns events (oldest first) into entries: {ev} for most, {ev: start, end} for a
  // tool call whose end arrived (an end closes the oldest open start of the same call).
  function entries(events) {
    const out = [];
    const open = [];
    for (const ev of events) {
      if (ev.eventType === "tool.call" && ev.tool && ev.tool.phase === "start") {
        const entry = { ev: ev, end: null };
        out.push(entry);
        open.push(entry);
        continue;
      }
      if (ev.eventType === "tool.call" && ev.tool && (ev.tool.phase === "end" || ev.tool.phase === "error")) {
        const k = open.findIndex((e) => sameCall(e.ev, ev));
        if (k >= 0) {
          open[k].end = ev;
          open.splice(k, 1);
          continue;
        }
      }
      out.push({ ev: ev, end: null });
    }
    return out;
  }

  // ---- rendering ----

  const expanded = new Set(); // ids of the entries a viewer opened with "more"
  let bodyIds = 0;

  function extension(path) {
    const m = /\.([A-Za-z0-9]+)$/.exec(path || "");
    return m ? m[1] : "";
  }

  // diffStat reads "+4 −1" from a file event's summary, else its change count.
  function diffStat(ev) {
    const m = /\(\+(\d+)(?:\s*[−-](\d+))?\)|\([−-](\d+)\)/.exec(ev.summary || "");
    if (m) return { added: +(m[1] || 0), removed: +(m[2] || m[3] || 0) };
    const n = (ev.file && ev.file.changeCount) || 0;
    return n ? { changed: n } : null;
  }

  function statNode(stat) {
    const wrapEl = el("span", "ev-stat");
    if (stat.changed !== undefined) {
      wrapEl.appendChild(el("span", "stat-changed", "±" + stat.changed));
      wrapEl.appendChild(el("span", "sr-only", stat.changed + " lines changed"));
      return wrapEl;
    }
    if (stat.added) wrapEl.appendChild(el("span", "stat-add", "+" + stat.added));
    if (stat.removed) wrapEl.appendChild(el("span", "stat-del", "−" + stat.removed));
    const total = stat.added + stat.removed;
    if (total > 0) {
      const bar = el("span", "stat-bar");
      bar.setAttribute("aria-hidden", "true");
      const greens = Math.round((5 * stat.added) / total);
      for (let k = 0; k < 5; k++) bar.appendChild(el("span", k < greens ? "sq sq-add" : "sq sq-del"));
      wrapEl.appendChild(bar);
    }
    wrapEl.setAttribute("aria-label", stat.added + " lines added, " + stat.removed + " removed");
    return wrapEl;
  }

  const STAT_SUFFIX = /\s*\((?:\+\d+(?:\s*[−-]\d+)?|[−-]\d+)\)\s*$/;

  // textBody is an entry's main text: Markdown for prompts, responses and thinking, inline
  // Markdown (backticks, emphasis) for one-line summaries.
  function textBody(ev, text) {
    const long = ev.eventType === "prompt" || ev.eventType === "response" || ev.eventType === "thinking";
    const body = el("div", "ev-text" + (long ? " ev-body ev-md" : ""));
    if (MD && long) body.appendChild(MD.render(text));
    else if (MD) MD.appendInline(body, text);
    else body.textContent = text;
    if (long) body.id = "ev-body-" + (++bodyIds);
    return body;
  }

  function toolStatus(entry) {
    const end = entry.end || (entry.ev.tool && entry.ev.tool.phase !== "start" ? entry.ev : null);
    if (!end) return { cls: "running", label: "running", icon: "●" };
    if (end.tool && end.tool.phase === "error") return { cls: "failed", label: "failed", icon: "✗" };
    return { cls: "done", label: "done", icon: "✓" };
  }

  function head(ev, entry) {
    const h = el("div", "ev-head");
    h.appendChild(el("span", "ev-type", TYPE_LABEL[ev.eventType] || ev.eventType || "Event"));
    if (ev.eventType === "tool.call") {
      const st = toolStatus(entry);
      const icon = el("span", "ev-status status-" + st.cls, st.icon);
      icon.setAttribute("aria-hidden", "true");
      h.appendChild(icon);
      h.appendChild(el("span", "sr-only", st.label));
    }
    if (ev.tool && ev.tool.name) h.appendChild(el("code", "ev-tool", ev.tool.name));
    if (ev.file) {
      const stat = diffStat(ev);
      if (stat) h.appendChild(statNode(stat));
    }
    const t = formatTime((entry.end || ev).occurredAt);
    if (t) {
      const time = el("time", "ev-time", t);
      time.dateTime = (entry.end || ev).occurredAt;
      h.appendChild(time);
    }
    return h;
  }

  // renderEntry returns an <li> for one entry.
  function renderEntry(entry) {
    const ev = entry.ev;
    const li = el("li", "ev ev-" + String(ev.eventType || "other").replace(/[^a-z]/g, "-"));
    li.dataset.eventId = ev.eventId || "";
    if (entry.end) li.dataset.endEventId = entry.end.eventId || "";
    if (ev.seq) li.dataset.seq = String(ev.seq);
    if (ev.eventType === "tool.call") li.classList.add("tool-" + toolStatus(entry).cls);
    li.appendChild(head(ev, entry));
    const shown = entry.end || ev;
    let text = ev.eventType === "tool.call" ? eventText(shown) : eventText(ev);
    if (ev.file && diffStat(ev)) text = text.replace(STAT_SUFFIX, ""); // the stat is shown in the head
    li.appendChild(textBody(ev, text));
    const args = ev.tool && ev.tool.argumentsPreview;
    const result = shown.tool && shown.tool.resultPreview;
    if (args || result) {
      const d = el("details", "ev-details");
      d.appendChild(el("summary", null, args && result ? "Arguments and result" : args ? "Arguments" : "Result"));
      if (args) d.appendChild(el("pre", "ev-pre", args));
      if (result) d.appendChild(el("pre", "ev-pre ev-result", result));
      li.appendChild(d);
    }
    if (ev.file && ev.file.snippet) {
      const pre = el("pre", "ev-pre ev-snippet");
      const code = el("code");
      if (MD) MD.highlightInto(code, ev.file.snippet, extension(ev.file.relativePath || ev.file.name));
      else code.textContent = ev.file.snippet;
      pre.appendChild(code);
      pre.setAttribute("aria-label", "Change in " + (ev.file.relativePath || ev.file.name || "the file"));
      li.appendChild(pre);
    }
    return li;
  }

  // renderEvent returns an <li> for one projected event (kept for callers of one event).
  function renderEvent(ev) {
    return renderEntry({ ev: ev, end: null });
  }

  // groupTurns splits entries (oldest first) into turns: a prompt starts a new turn, and the
  // responses, thinking, tool calls and file edits after it belong to it.
  function groupTurns(items) {
    const turns = [];
    let cur = null;
    for (const item of items) {
      const ev = item.ev || item;
      const starts = ev.eventType === "prompt" || ev.eventType === "session.status";
      if (!cur || starts || cur.status) {
        cur = { events: [], status: ev.eventType === "session.status" };
        turns.push(cur);
      }
      cur.events.push(item);
    }
    return turns;
  }

  // renderTurns fills list (an <ol>) with events: tool calls grouped, then grouped into turns.
  // Long texts are clamped with a "more" button once they are in the page.
  function renderTurns(list, events) {
    const focus = focused(list);
    list.replaceChildren();
    for (const turn of groupTurns(entries(events))) {
      const li = el("li", turn.status ? "turn turn-status" : "turn");
      const inner = el("ol", "turn-events");
      for (const entry of turn.events) inner.appendChild(renderEntry(entry));
      li.appendChild(inner);
      list.appendChild(li);
    }
    clampLong(list);
    refocus(list, focus);
  }

  // focused says which control of which entry has the keyboard focus, so that a redraw (a new
  // event arrived) gives it back instead of dropping it.
  function focused(list) {
    const a = document.activeElement;
    if (!a || !list.contains(a) || a === list) return null;
    const entry = a.closest(".ev");
    return entry ? { id: entry.dataset.eventId, tag: a.tagName, cls: a.className } : null;
  }

  function refocus(list, f) {
    if (!f) return;
    for (const entry of list.querySelectorAll(".ev")) {
      if (entry.dataset.eventId !== f.id) continue;
      const target = Array.from(entry.querySelectorAll(f.tag)).find((e) => e.className === f.cls);
      if (target) target.focus({ preventScroll: true });
      return;
    }
  }

  // clampLong folds the long texts of a rendered list behind "more" (those a viewer opened
  // stay open across redraws).
  function clampLong(list) {
    for (const body of list.querySelectorAll(".ev-body")) {
      const li = body.closest(".ev");
      const id = li && li.dataset.eventId;
      if (id && expanded.has(id)) { addToggle(body, id, true); continue; }
      body.classList.add("clamped");
      if (body.scrollHeight <= body.clientHeight + 4) { body.classList.remove("clamped"); continue; }
      addToggle(body, id, false);
    }
  }

  function addToggle(body, id, open) {
    const b = el("button", "ev-more", open ? "less" : "more");
    b.type = "button";
    b.setAttribute("aria-expanded", open ? "true" : "false");
    b.setAttribute("aria-controls", body.id);
    b.addEventListener("click", () => {
      const nowOpen = b.getAttribute("aria-expanded") !== "true";
      body.classList.toggle("clamped", !nowOpen);
      b.setAttribute("aria-expanded", nowOpen ? "true" : "false");
      b.textContent = nowOpen ? "less" : "more";
      if (nowOpen) expanded.add(id); else expanded.delete(id);
    });
    body.after(b);
  }

  // ---- projection (mirrors shared/vibe Project) ----

  function live(s) {
    return s.enabled === 1 && s.paused === 0;
  }

  function typeShown(type, s) {
    switch (type) {
      case "session.status": return true;
      case "prompt": return s.show_prompts === 1;
      case "response": return s.show_responses === 1;
      case "thinking": return s.show_thinking === 1;
      case "tool.call": return s.show_tool_calls === 1;
      case "file.change":
      case "file.save": return s.show_file_events === 1;
    }
    return false;
  }

  function scaleLimit(n, depth) {
    if (depth === "headline") return Math.max(40, Math.round(0.6 * n));
    if (depth === "deep") return Math.round(1.1 * n);
    return n;
  }

  function textLimit(type, s) {
    let n;
    switch (type) {
      case "prompt": n = s.max_prompt_chars; break;
      case "thinking": n = s.max_thinking_chars; break;
      case "tool.call": n = s.max_tool_chars; break;
      case "file.change":
      case "file.save": n = s.max_snippet_chars; break;
      default: n = s.max_response_chars;
    }
    return scaleLimit(n, s.viewer_depth);
  }

  function baseName(p) {
    p = (p || "").replace(/[\/\\]+$/, "");
    const i = Math.max(p.lastIndexOf("/"), p.lastIndexOf("\\"));
    return i >= 0 ? p.slice(i + 1) : p;
  }

  const PATHLIKE = /[^\s"'`()\[\]<>,;]*[\/\\][^\s"'`()\[\]<>,;]*/g;

  function redactSummaryPaths(s) {
    if (!/[\/\\]/.test(s)) return s;
    return s.replace(PATHLIKE, function (w) {
      if (w.includes("://")) return w;
      const seps = (w.match(/[\/\\]/g) || []).length;
      const last = baseName(w);
      if (seps >= 2 || last.includes(".") || w.startsWith("~") || w.startsWith(".")) {
        return last === "" ? w : last;
      }
      return w;
    });
  }

  function toolSummary(t) {
    const name = t.name || "a tool";
    if (t.phase === "start") return "Running " + name;
    if (t.phase === "error") return name + " failed";
    return "Used " + name;
  }

  // quotes mirrors the server's rule: a tool summary that holds the arguments or the result
  // (or one of their JSON string values) of at least 8 characters is not shown without them.
  function quotes(summary, preview) {
    preview = (preview || "").trim();
    if (!summary || preview.length < 8) return false;
    if (summary.includes(preview)) return true;
    if (preview[0] !== "{" && preview[0] !== "[") return false;
    let v;
    try { v = JSON.parse(preview); } catch (e) { return false; }
    const walk = (x) => {
      if (typeof x === "string") { x = x.trim(); return x.length >= 8 && summary.includes(x); }
      if (x && typeof x === "object") return Object.values(x).some(walk);
      return false;
    };
    return walk(v);
  }

  // project returns what a viewer would see of a stored event, or null.
  function project(ev, s) {
    if (!ev || !live(s) || ev.visibility === "streamer" || !typeShown(ev.eventType, s)) return null;
    const p = { eventId: ev.eventId, eventType: ev.eventType, occurredAt: ev.occurredAt, sequence: ev.sequence };
    if (ev.publisher) {
      p.publisher = {
        integrationId: ev.publisher.integrationId, integrationLabel: ev.publisher.integrationLabel,
        vendor: ev.publisher.vendor, clientType: ev.publisher.clientType, clientName: ev.publisher.clientName,
      };
    }
    const limit = textLimit(ev.eventType, s);
    p.summary = truncate(ev.summary, limit);
    switch (ev.eventType) {
      case "prompt": if (ev.prompt) p.prompt = { text: truncate(ev.prompt.text, limit) }; break;
      case "thinking": if (ev.thinking) p.thinking = { text: truncate(ev.thinking.text, limit) }; break;
      case "response":
        if (ev.response) {
          const t = truncate(ev.response.text, limit);
          p.response = { text: t, truncated: !!ev.response.truncated || t !== ev.response.text };
        }
        break;
      case "tool.call":
        if (!ev.tool) {
          if (s.show_tool_arguments !== 1 && !p.summary) p.summary = "Used a tool";
          break;
        }
        p.tool = { name: ev.tool.name, phase: ev.tool.phase };
        if (s.show_tool_arguments === 1) {
          p.tool.argumentsPreview = truncate(ev.tool.argumentsPreview, limit);
          p.tool.resultPreview = truncate(ev.tool.resultPreview, limit);
        } else if (!p.summary || quotes(ev.summary, ev.tool.argumentsPreview) || quotes(ev.summary, ev.tool.resultPreview)) {
          p.summary = toolSummary(p.tool);
        }
        break;
      case "file.change":
      case "file.save":
        if (ev.file) {
          const f = { name: ev.file.name, relativePath: ev.file.relativePath, operation: ev.file.operation, changeCount: ev.file.changeCount, snippet: null };
          if (s.redact_file_paths === 1) {
            f.name = baseName(f.name);
            f.relativePath = baseName(f.relativePath);
          }
          if (s.show_file_snippets === 1 && ev.file.snippet != null) f.snippet = truncate(ev.file.snippet, scaleLimit(s.max_snippet_chars, s.viewer_depth));
          p.file = f;
        }
        break;
      case "session.status":
        if (ev.status) p.status = { state: ev.status.state, message: truncate(ev.status.message, limit) };
        break;
    }
    if (s.redact_file_paths === 1) p.summary = redactSummaryPaths(p.summary || "");
    return p;
  }

  async function api(method, url, body) {
    // no-cache: always revalidate (a 304 is cheap), so a reload right after a settings change
    // or a retraction never shows the browser's copy from a second ago.
    const opts = { method: method, headers: { "Accept": "application/json" }, credentials: "same-origin", cache: "no-cache" };
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    const res = await fetch(url, opts);
    let data = null;
    if (res.status !== 204 && res.status !== 304) {
      try { data = await res.json(); } catch (e) { data = null; }
    }
    if (!res.ok) {
      const err = new Error((data && data.error) || ("Request failed (" + res.status + ")"));
      err.status = res.status;
      err.data = data;
      throw err;
    }
    return data;
  }

  window.OpenVibe = {
    el: el, truncate: truncate, publisherLabel: publisherLabel, eventText: eventText,
    renderEvent: renderEvent, groupTurns: groupTurns, renderTurns: renderTurns, entries: entries, diffStat: diffStat,
    project: project, live: live, formatTime: formatTime, api: api, typeLabel: TYPE_LABEL,
  };
})();
