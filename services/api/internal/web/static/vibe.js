// Shared by the viewer page and the studio: renders vibe-coding events as DOM nodes (text is
// always set with textContent) and mirrors the server's viewer projection for the studio's
// live preview.
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

  // truncate cuts s to n characters, ending with an ellipsis when it cuts (server rule).
  function truncate(s, n) {
    s = s || "";
    if (n <= 0) return "";
    const c = chars(s);
    if (c.length <= n) return s;
    return c.slice(0, Math.max(0, n - 1)).join("") + ELLIPSIS;
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

  // renderEvent returns an <li> for one projected event.
  function renderEvent(ev) {
    const li = el("li", "ev ev-" + String(ev.eventType || "other").replace(/[^a-z]/g, "-"));
    li.dataset.eventId = ev.eventId || "";
    if (ev.seq) li.dataset.seq = String(ev.seq);
    const head = el("div", "ev-head");
    head.appendChild(el("span", "ev-type", TYPE_LABEL[ev.eventType] || ev.eventType || "Event"));
    if (ev.tool && ev.tool.name) head.appendChild(el("code", "ev-tool", ev.tool.name));
    if (ev.file && ev.file.changeCount) head.appendChild(el("span", "ev-count", "+" + ev.file.changeCount));
    const t = formatTime(ev.occurredAt);
    if (t) {
      const time = el("time", "ev-time", t);
      time.dateTime = ev.occurredAt;
      head.appendChild(time);
    }
    li.appendChild(head);
    li.appendChild(el("p", "ev-text", eventText(ev)));
    if (ev.tool && (ev.tool.argumentsPreview || ev.tool.resultPreview)) {
      if (ev.tool.argumentsPreview) li.appendChild(el("pre", "ev-pre", ev.tool.argumentsPreview));
      if (ev.tool.resultPreview) li.appendChild(el("pre", "ev-pre ev-result", ev.tool.resultPreview));
    }
    if (ev.file && ev.file.snippet) li.appendChild(el("pre", "ev-pre", ev.file.snippet));
    return li;
  }

  // groupTurns splits events (oldest first) into turns: a prompt starts a new turn, and the
  // response, thinking, tool calls and file edits after it belong to it.
  function groupTurns(events) {
    const turns = [];
    let cur = null;
    for (const ev of events) {
      const starts = ev.eventType === "prompt" || ev.eventType === "session.status";
      if (!cur || starts || cur.status) {
        cur = { events: [], status: ev.eventType === "session.status" };
        turns.push(cur);
      }
      cur.events.push(ev);
    }
    return turns;
  }

  // renderTurns fills list (an <ol>) with events grouped into turns.
  function renderTurns(list, events) {
    list.replaceChildren();
    for (const turn of groupTurns(events)) {
      const li = el("li", turn.status ? "turn turn-status" : "turn");
      const inner = el("ol", "turn-events");
      for (const ev of turn.events) inner.appendChild(renderEvent(ev));
      li.appendChild(inner);
      list.appendChild(li);
    }
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
          if (s.show_tool_arguments !== 1) p.summary = "Used a tool";
          break;
        }
        p.tool = { name: ev.tool.name, phase: ev.tool.phase };
        if (s.show_tool_arguments === 1) {
          p.tool.argumentsPreview = truncate(ev.tool.argumentsPreview, limit);
          p.tool.resultPreview = truncate(ev.tool.resultPreview, limit);
        } else {
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
    renderEvent: renderEvent, groupTurns: groupTurns, renderTurns: renderTurns,
    project: project, live: live, formatTime: formatTime, api: api, typeLabel: TYPE_LABEL,
  };
})();
