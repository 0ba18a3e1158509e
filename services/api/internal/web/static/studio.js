// The owner's studio: sign in, slots, API tokens, going live, vibe-coding settings with a live
// preview, the event history with retract buttons, and the panic button.
"use strict";

(function () {
  const OV = window.OpenVibe;
  const $ = (id) => document.getElementById(id);

  const BOOL_FIELDS = ["enabled", "paused", "show_prompts", "show_responses", "show_thinking", "show_tool_calls",
    "show_tool_arguments", "show_file_events", "show_file_snippets", "redact_file_paths", "redact_personal_data"];
  const INT_FIELDS = ["delay_ms", "max_events", "max_prompt_chars", "max_response_chars", "max_thinking_chars",
    "max_tool_chars", "max_snippet_chars"];

  const state = { me: null, slots: [], slot: null, settings: null, history: [], nextBefore: null, pollTimer: null };

  // ---- small helpers ----

  // api calls the JSON API; an expired or revoked session sends the owner back to the login
  // form instead of failing every button.
  async function api(method, url, body) {
    try {
      return await OV.api(method, url, body);
    } catch (err) {
      if (err.status === 401 && state.me && !url.startsWith("/api/auth/")) {
        state.me = null;
        stopPolling();
        showAuth();
        flash("Your session ended: log in again.", "bad");
      }
      throw err;
    }
  }

  function flash(text, kind) {
    const f = $("flash");
    f.textContent = text;
    f.className = "flash " + (kind || "");
    f.hidden = !text;
    clearTimeout(flash.timer);
    if (text) flash.timer = setTimeout(() => { f.hidden = true; }, 6000);
  }

  function formError(form, err) {
    const p = form.querySelector(".error");
    if (!p) return;
    p.textContent = err ? err.message : "";
    p.hidden = !err;
  }

  function busy(button, on) {
    if (button) button.disabled = on;
  }

  // ---- auth ----

  async function loadMe() {
    try {
      const me = await api("GET", "/api/me");
      state.me = me.user;
      showDashboard();
    } catch (e) {
      if (e.status === 401) showAuth();
      else flash(e.message, "bad");
    }
  }

  function showAuth() {
    $("auth").hidden = false;
    $("dashboard").hidden = true;
    $("login-username").focus();
  }

  async function showDashboard() {
    $("auth").hidden = true;
    $("dashboard").hidden = false;
    $("me-name").textContent = state.me.username;
    await Promise.all([loadSlots(), loadTokens()]);
  }

  function authSubmit(form, url) {
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const btn = form.querySelector("button[type=submit]");
      busy(btn, true);
      formError(form, null);
      try {
        const data = await api("POST", url, { username: form.elements["username"].value.trim(), password: form.elements["password"].value });
        state.me = data.user;
        form.reset();
        const next = new URLSearchParams(location.search).get("next");
        if (next && /^\/[A-Za-z0-9_@-]+\/[A-Za-z0-9-]+$/.test(next)) {
          location.assign(next); // back to the viewer page that sent us here
          return;
        }
        await showDashboard();
      } catch (err) {
        formError(form, err);
      } finally {
        busy(btn, false);
      }
    });
  }
  authSubmit($("login-form"), "/api/auth/login");
  authSubmit($("register-form"), "/api/auth/register");

  $("logout").addEventListener("click", async () => {
    await api("POST", "/api/auth/logout");
    state.me = null;
    stopPolling();
    showAuth();
  });

  // ---- slots ----

  async function loadSlots() {
    const data = await api("GET", "/api/managed-streams");
    state.slots = data.managed_streams;
    renderSlots();
    const keep = state.slot && state.slots.find((s) => s.id === state.slot.id);
    if (keep) selectSlot(keep.id);
    else if (state.slots.length) selectSlot(state.slots[0].id);
  }

  function renderSlots() {
    const ul = $("slot-list");
    ul.replaceChildren();
    for (const s of state.slots) {
      const li = OV.el("li");
      const b = OV.el("button", "slot-button", s.title);
      b.type = "button";
      b.dataset.slotId = String(s.id);
      b.setAttribute("aria-pressed", String(!!(state.slot && state.slot.id === s.id)));
      b.appendChild(OV.el("span", "muted small", " /" + s.slug));
      if (s.live_stream_id) b.appendChild(OV.el("span", "badge live", "Live"));
      b.addEventListener("click", () => selectSlot(s.id));
      li.appendChild(b);
      ul.appendChild(li);
    }
    if (!state.slots.length) ul.appendChild(OV.el("li", "muted", "No slots yet: create one below."));
  }

  $("slot-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const form = e.target;
    formError(form, null);
    try {
      const s = await api("POST", "/api/managed-streams", { slug: form.elements["slug"].value.trim(), title: form.elements["title"].value.trim() });
      form.reset();
      state.slot = s;
      await loadSlots();
      flash("Slot created.", "good");
    } catch (err) {
      formError(form, err);
    }
  });

  async function selectSlot(id) {
    const data = await api("GET", "/api/managed-streams/" + id);
    state.slot = data;
    state.settings = data.settings;
    renderSlots();
    $("slot-panel").hidden = false;
    $("slot-panel-title").textContent = data.title;
    const link = $("slot-viewer-link");
    link.href = data.viewer_path;
    link.textContent = location.origin + data.viewer_path;
    $("slot-id").textContent = String(data.id);
    renderLive();
    fillSettings(data.settings);
    await loadHistory(true);
    startPolling();
  }

  function renderLive() {
    const live = !!state.slot.live_stream_id;
    $("slot-live").textContent = live ? "Live" : "Offline";
    $("slot-live").classList.toggle("live", live);
    $("go-live").hidden = live;
    $("end-live").hidden = !live;
    $("offline-help").hidden = live;
  }

  $("go-live").addEventListener("click", async () => {
    try {
      const r = await api("POST", "/api/managed-streams/" + state.slot.id + "/live");
      state.slot.live_stream_id = r.live_stream_id;
      renderLive();
      renderSlots();
      flash("You are live.", "good");
    } catch (err) { flash(err.message, "bad"); }
  });

  $("end-live").addEventListener("click", async () => {
    try {
      await api("DELETE", "/api/managed-streams/" + state.slot.id + "/live");
      state.slot.live_stream_id = null;
      renderLive();
      renderSlots();
      flash("Stream ended.", "good");
    } catch (err) { flash(err.message, "bad"); }
  });

  $("panic").addEventListener("click", async () => {
    const btn = $("panic");
    busy(btn, true);
    try {
      const r = await api("POST", "/api/vibe-coding/managed/" + state.slot.id + "/panic");
      state.settings = r.settings;
      fillSettings(r.settings);
      await loadHistory(true);
      flash("Paused. " + r.withheld + " pending event(s) dropped. Untick Paused and save to resume.", "bad");
    } catch (err) {
      flash(err.message, "bad");
    } finally {
      busy(btn, false);
    }
  });

  // ---- settings + preview ----

  function fillSettings(s) {
    const form = $("settings-form");
    for (const f of BOOL_FIELDS) form.elements[f].checked = s[f] === 1;
    for (const f of INT_FIELDS) form.elements[f].value = String(s[f]);
    form.elements.widget_title.value = s.widget_title;
    form.elements.viewer_depth.value = s.viewer_depth;
    clearFieldErrors();
    renderPreview();
  }

  function readSettings() {
    const form = $("settings-form");
    const out = {};
    for (const f of BOOL_FIELDS) out[f] = form.elements[f].checked ? 1 : 0;
    for (const f of INT_FIELDS) {
      const v = form.elements[f].value.trim();
      out[f] = v === "" ? null : (/^-?\d+$/.test(v) ? Number(v) : v);
    }
    out.widget_title = form.elements.widget_title.value;
    out.viewer_depth = form.elements.viewer_depth.value;
    return out;
  }

  // previewSettings is readSettings clamped like the server would, for the preview only.
  function previewSettings() {
    const s = Object.assign({}, state.settings || {}, readSettings());
    const form = $("settings-form");
    for (const f of INT_FIELDS) {
      const input = form.elements[f];
      let n = typeof s[f] === "number" ? s[f] : (state.settings ? state.settings[f] : 0);
      n = Math.min(Number(input.max), Math.max(Number(input.min), n));
      s[f] = n;
    }
    return s;
  }

  const SAMPLE = [
    { eventId: "sample-1", eventType: "prompt", visibility: "public", summary: "Add retry with backoff to the upload client", prompt: { text: "Add retry with backoff to the upload client in src/net/upload.go, max 5 attempts." } },
    { eventId: "sample-2", eventType: "thinking", visibility: "public", summary: "Planning", thinking: { text: "The client already wraps errors; a loop around doRequest with a jittered delay is enough." } },
    { eventId: "sample-3", eventType: "tool.call", visibility: "public", summary: "grep doRequest", tool: { name: "grep", phase: "end", argumentsPreview: "{\"pattern\":\"doRequest\",\"path\":\"src/net\"}", resultPreview: "src/net/upload.go:42" } },
    { eventId: "sample-4", eventType: "file.change", visibility: "public", summary: "Editing src/net/upload.go", file: { name: "upload.go", relativePath: "src/net/upload.go", operation: "edit", changeCount: 3, snippet: "for attempt := 1; attempt <= 5; attempt++ {" } },
    { eventId: "sample-5", eventType: "response", visibility: "public", summary: "Added retries", response: { text: "Added up to 5 attempts with exponential backoff and jitter; non-retryable errors return at once.", truncated: false } },
  ];

  function previewSource() {
    const stored = state.history.slice(0, 40).filter((h) => !h.retracted_at && !h.withheld)
      .map((h) => h.stored).reverse();
    return stored.length ? stored : SAMPLE;
  }

  function renderPreview() {
    const s = previewSettings();
    $("preview-widget-title").textContent = s.widget_title || "Vibe Coding";
    const badge = $("preview-state");
    badge.hidden = !(s.paused === 1 || s.enabled !== 1 || s.delay_ms > 0);
    badge.textContent = s.enabled !== 1 ? "Disabled" : (s.paused === 1 ? "Paused" : "Delayed " + Math.round(s.delay_ms / 1000) + " s");
    const events = previewSource().map((ev) => OV.project(ev, s)).filter(Boolean).slice(-s.max_events);
    OV.renderTurns($("preview-events"), events);
    $("preview-empty").hidden = events.length > 0;
  }

  $("settings-form").addEventListener("input", renderPreview);
  $("settings-form").addEventListener("change", renderPreview);

  function clearFieldErrors() {
    const form = $("settings-form");
    form.querySelectorAll("[aria-invalid]").forEach((n) => n.removeAttribute("aria-invalid"));
    formError(form, null);
  }

  $("settings-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const form = e.target;
    clearFieldErrors();
    $("settings-status").textContent = "Saving…";
    try {
      const r = await api("PUT", "/api/vibe-coding/managed/" + state.slot.id + "/settings", { settings: readSettings() });
      state.settings = r.settings;
      fillSettings(r.settings);
      $("settings-status").textContent = "Saved. Viewers follow the change now.";
      await loadHistory(true);
    } catch (err) {
      $("settings-status").textContent = "";
      const fields = (err.data && err.data.fields) || {};
      for (const name of Object.keys(fields)) {
        const input = form.elements[name];
        if (input && input.setAttribute) input.setAttribute("aria-invalid", "true");
      }
      formError(form, err);
    }
  });

  // ---- history ----

  async function loadHistory(reset) {
    if (!state.slot) return;
    let url = "/api/vibe-coding/managed/" + state.slot.id + "/events?limit=50";
    if (!reset && state.nextBefore) url += "&before=" + state.nextBefore;
    const tbody = $("history-body");
    tbody.setAttribute("aria-busy", "true"); // the rows are about to be replaced
    try {
      const data = await api("GET", url);
      state.history = reset ? data.events : state.history.concat(data.events);
      state.nextBefore = data.next_before;
      renderHistory();
      renderPreview();
    } finally {
      tbody.removeAttribute("aria-busy");
    }
  }

  const STATUS_TEXT = {
    delivered: "Delivered", visible: "In feed", pending: "In delay", hidden: "Hidden by settings",
    private: "Streamer only", withheld: "Withheld", retracted: "Retracted",
  };

  function renderHistory() {
    const tbody = $("history-body");
    tbody.replaceChildren();
    for (const h of state.history) {
      const tr = OV.el("tr");
      tr.dataset.eventId = h.event_id;
      tr.appendChild(OV.el("td", "num", h.seq));
      const when = OV.el("td", "nowrap", OV.formatTime(h.received_at));
      tr.appendChild(when);
      tr.appendChild(OV.el("td", "nowrap", OV.typeLabel[h.event_type] || h.event_type));
      tr.appendChild(OV.el("td", "cell-text", OV.eventText(h.stored || {})));
      tr.appendChild(OV.el("td", "cell-text", h.projected ? OV.eventText(h.projected) : "—"));
      const st = OV.el("td", "nowrap");
      st.appendChild(OV.el("span", "status status-" + h.viewer_status, STATUS_TEXT[h.viewer_status] || h.viewer_status));
      if (h.first_delivered_at) st.appendChild(OV.el("div", "muted small", "sent " + OV.formatTime(h.first_delivered_at)));
      if (h.retracted_at) st.appendChild(OV.el("div", "muted small", "by " + ((h.retracted_by && h.retracted_by.username) || "owner") + " " + OV.formatTime(h.retracted_at)));
      tr.appendChild(st);
      const act = OV.el("td");
      if (!h.retracted_at) {
        const b = OV.el("button", "retract", "Retract");
        b.type = "button";
        b.setAttribute("aria-label", "Retract event " + h.seq);
        b.addEventListener("click", () => retract(h, b));
        act.appendChild(b);
      }
      tr.appendChild(act);
      tbody.appendChild(tr);
    }
    $("history-empty").hidden = state.history.length > 0;
    $("history-more").hidden = !state.nextBefore;
  }

  async function retract(h, button) {
    busy(button, true);
    try {
      await api("DELETE", "/api/vibe-coding/managed/" + state.slot.id + "/events/" + encodeURIComponent(h.event_id));
      flash("Event " + h.seq + " retracted.", "good");
      await loadHistory(true);
    } catch (err) {
      busy(button, false);
      flash(err.message, "bad");
    }
  }

  $("history-refresh").addEventListener("click", () => loadHistory(true));
  $("history-more").addEventListener("click", () => loadHistory(false));

  function startPolling() {
    stopPolling();
    state.pollTimer = setInterval(() => {
      if (document.visibilityState === "visible" && !state.nextBefore) loadHistory(true).catch(() => {});
    }, 5000);
  }

  function stopPolling() {
    clearInterval(state.pollTimer);
  }

  // ---- tokens ----

  async function loadTokens() {
    const data = await api("GET", "/api/tokens");
    const ul = $("token-list");
    ul.replaceChildren();
    for (const t of data.tokens) {
      const li = OV.el("li", "token token-" + t.status);
      li.appendChild(OV.el("strong", null, t.name));
      li.appendChild(OV.el("code", null, t.hint));
      li.appendChild(OV.el("span", "muted small", t.scopes.join(", ")));
      const meta = [t.status];
      if (t.last_used_at) meta.push("used " + new Date(t.last_used_at).toLocaleString());
      if (t.expires_at) meta.push("expires " + new Date(t.expires_at).toLocaleDateString());
      li.appendChild(OV.el("span", "muted small", meta.join(" · ")));
      if (t.status === "active") {
        const b = OV.el("button", "link", "Revoke");
        b.type = "button";
        b.setAttribute("aria-label", "Revoke token " + t.name);
        b.addEventListener("click", async () => {
          try {
            await api("DELETE", "/api/tokens/" + t.id);
            await loadTokens();
          } catch (err) { flash(err.message, "bad"); }
        });
        li.appendChild(b);
      }
      ul.appendChild(li);
    }
  }

  $("token-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const form = e.target;
    formError(form, null);
    const scopes = Array.from(form.querySelectorAll("input[name=scope]:checked")).map((i) => i.value);
    const body = { name: form.elements["name"].value.trim(), scopes: scopes };
    const days = form.elements["expires_in_days"].value.trim();
    if (days) body.expires_in_days = Number(days);
    try {
      const t = await api("POST", "/api/tokens", body);
      $("token-value").value = t.token;
      $("token-created").hidden = false;
      $("token-copy").textContent = "Copy";
      form.reset();
      await loadTokens();
    } catch (err) {
      formError(form, err);
    }
  });

  $("token-copy").addEventListener("click", async () => {
    const input = $("token-value");
    try {
      await navigator.clipboard.writeText(input.value);
    } catch (e) {
      input.select();
      document.execCommand("copy");
    }
    $("token-copy").textContent = "Copied";
  });

  loadMe();
})();
