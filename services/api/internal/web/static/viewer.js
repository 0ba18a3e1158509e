// Viewer page: the vibe-coding widget (hydrated from the public feed, then following the
// chat socket) and the slot's chat.
"use strict";

(function () {
  const OV = window.OpenVibe;
  const body = document.body;
  const username = body.dataset.username;
  const slot = body.dataset.slotSlug;
  const feedURL = "/api/vibe-coding/channel/" + encodeURIComponent(username) + "/" + encodeURIComponent(slot) + "/events?limit=100";

  const $ = (id) => document.getElementById(id);
  const widget = $("vibe-widget");
  const list = $("vibe-events");
  const empty = $("vibe-empty");
  const pubLabel = $("vibe-publisher");
  const stateBadge = $("vibe-state");
  const title = $("vibe-title");
  const liveBadge = $("live-badge");
  const connStatus = $("conn-status");
  const chatList = $("chat-messages");
  const chatForm = $("chat-form");
  const chatInput = $("chat-input");
  const chatLogin = $("chat-login");
  const chatError = $("chat-error");
  const announce = $("vibe-announce");
  chatLogin.querySelector("a").href = "/studio?next=" + encodeURIComponent(location.pathname);

  const state = {
    settings: null,
    publisher: null,
    events: [], // projected events with seq, oldest first
    lastSeq: 0, // highest seq seen, for ?since= on reconnect
    ws: null,
    retry: 0,
    chatIds: new Set(),
    hydrating: null,
    arrivedDuringHydrate: null, // live events received while a feed reload is in flight
    hydrateAgain: false,
  };

  // ---- widget ----

  function maxEvents() {
    return (state.settings && state.settings.max_events) || 18;
  }

  function render() {
    const s = state.settings;
    const enabled = !s || s.enabled === 1;
    widget.hidden = !enabled;
    if (s) title.textContent = s.widget_title || "Vibe Coding";
    if (s && s.paused === 1) {
      stateBadge.textContent = "Paused";
      stateBadge.hidden = false;
    } else if (s && s.delay_ms > 0) {
      stateBadge.textContent = "Delayed " + Math.round(s.delay_ms / 1000) + " s";
      stateBadge.hidden = false;
    } else {
      stateBadge.hidden = true;
    }
    const label = OV.publisherLabel(state.publisher);
    pubLabel.textContent = label ? "via " + label : "";
    pubLabel.hidden = !label;
    if (state.events.length > maxEvents()) state.events = state.events.slice(-maxEvents());
    OV.renderTurns(list, state.events);
    empty.hidden = state.events.length > 0;
    empty.textContent = s && s.paused === 1 ? "Paused by the streamer." : "No coding activity yet.";
    list.scrollTop = list.scrollHeight;
  }

  function addEvent(ev, seq) {
    if (!ev || !ev.eventId) return;
    if (seq) state.lastSeq = Math.max(state.lastSeq, seq);
    if (state.events.some((e) => e.eventId === ev.eventId)) return; // duplicate after a resume
    const item = Object.assign({}, ev, { seq: seq || 0 });
    if (state.arrivedDuringHydrate) state.arrivedDuringHydrate.push(item);
    if (ev.publisher && OV.publisherLabel(ev.publisher)) state.publisher = ev.publisher;
    // keep seq order even if frames race with a feed reload
    let i = state.events.length;
    while (i > 0 && item.seq && state.events[i - 1].seq > item.seq) i--;
    state.events.splice(i, 0, item);
    render();
    // The list is redrawn as a whole; announce only the new event to screen readers.
    announce.textContent = (OV.typeLabel[item.eventType] || "Event") + ": " + OV.truncate(OV.eventText(item), 140);
  }

  function removeEvent(eventId) {
    const before = state.events.length;
    state.events = state.events.filter((e) => e.eventId !== eventId);
    if (state.events.length !== before) render();
  }

  // hydrate loads the public feed; events the socket delivered meanwhile are kept.
  async function hydrate() {
    if (state.hydrating) {
      // A reload is in flight but may predate what triggered this one (a settings change):
      // load again once it ends.
      state.hydrateAgain = true;
      return state.hydrating;
    }
    state.arrivedDuringHydrate = [];
    state.hydrating = (async () => {
      try {
        const feed = await OV.api("GET", feedURL);
        state.settings = feed.settings;
        if (feed.publisher) state.publisher = feed.publisher;
        const top = feed.events.reduce((m, e) => Math.max(m, e.seq || 0), 0);
        // The feed replaces what is on screen; only frames that arrived while it was loading
        // and are newer than it are kept on top.
        const later = state.arrivedDuringHydrate.filter((e) => e.seq > top && !feed.events.some((f) => f.eventId === e.eventId));
        state.events = feed.events.concat(later);
        state.lastSeq = Math.max(state.lastSeq, top);
        liveBadge.textContent = feed.live_stream_id ? "Live" : "Offline";
        liveBadge.classList.toggle("live", !!feed.live_stream_id);
        render();
      } catch (e) {
        connStatus.textContent = "Could not load the feed";
      } finally {
        state.arrivedDuringHydrate = null;
        state.hydrating = null;
      }
      if (state.hydrateAgain) {
        state.hydrateAgain = false;
        await hydrate();
      }
    })();
    return state.hydrating;
  }

  // ---- chat ----

  function addChat(m) {
    if (!m || state.chatIds.has(m.id)) return;
    state.chatIds.add(m.id);
    const li = OV.el("li", "chat-msg");
    const who = OV.el("span", "chat-user", (m.user && m.user.username) || "someone");
    li.appendChild(who);
    li.appendChild(OV.el("span", "chat-text", m.text));
    chatList.appendChild(li);
    while (chatList.children.length > 200) chatList.removeChild(chatList.firstChild);
    chatList.scrollTop = chatList.scrollHeight;
  }

  chatForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = chatInput.value.trim();
    if (!text || !state.ws || state.ws.readyState !== WebSocket.OPEN) return;
    state.ws.send(JSON.stringify({ type: "chat.send", text: text }));
    chatInput.value = "";
    chatError.hidden = true;
  });

  // ---- socket ----

  function socketURL() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    let url = proto + "//" + location.host + "/ws/chat/" + encodeURIComponent(username) + "/" + encodeURIComponent(slot);
    if (state.lastSeq > 0) url += "?since=" + state.lastSeq;
    return url;
  }

  function onFrame(msg) {
    switch (msg.type) {
      case "welcome": {
        state.retry = 0;
        connStatus.textContent = "Connected";
        body.dataset.connected = "true";
        if (msg.settings) state.settings = msg.settings;
        liveBadge.textContent = msg.live_stream_id ? "Live" : "Offline";
        liveBadge.classList.toggle("live", !!msg.live_stream_id);
        chatForm.hidden = !msg.user;
        chatLogin.hidden = !!msg.user;
        render();
        break;
      }
      case "vibe-coding":
        addEvent(msg.event, msg.seq);
        break;
      case "vibe-coding.settings":
        state.settings = msg.settings;
        liveBadge.textContent = msg.live_stream_id ? "Live" : "Offline";
        liveBadge.classList.toggle("live", !!msg.live_stream_id);
        render();
        hydrate(); // re-project what is on screen with the new settings
        break;
      case "vibe-coding.retract":
        removeEvent(msg.eventId || msg.event_id);
        break;
      case "reset":
        if (msg.seq) state.lastSeq = Math.max(state.lastSeq, msg.seq);
        hydrate();
        break;
      case "chat.history":
        (msg.messages || []).forEach(addChat);
        break;
      case "chat.message":
        addChat(msg);
        break;
      case "error":
        chatError.textContent = msg.error || "Error";
        chatError.hidden = false;
        break;
    }
  }

  function connect() {
    const ws = new WebSocket(socketURL());
    state.ws = ws;
    ws.addEventListener("message", (e) => {
      // The socket may coalesce several frames into one message, one JSON object per line.
      for (const line of String(e.data).split("\n")) {
        if (!line) continue;
        let msg;
        try { msg = JSON.parse(line); } catch (err) { continue; }
        onFrame(msg);
      }
    });
    ws.addEventListener("close", () => {
      if (state.ws !== ws) return;
      body.dataset.connected = "false";
      state.retry = Math.min(state.retry + 1, 6);
      const wait = Math.min(15000, 500 * Math.pow(2, state.retry - 1)) * (0.75 + Math.random() * 0.5);
      connStatus.textContent = "Reconnecting…";
      setTimeout(connect, wait);
    });
  }

  hydrate().then(connect);
})();
