// Viewer page: the vibe-coding widget (feed.js: the public feed, then the chat socket) and
// the slot's chat on the same socket.
"use strict";

(function () {
  const OV = window.OpenVibe;
  const body = document.body;

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
  const chatIds = new Set();

  // ---- widget ----

  function render(feed, added) {
    const s = feed.settings;
    widget.hidden = !(!s || s.enabled === 1);
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
    const label = OV.publisherLabel(feed.publisher);
    pubLabel.textContent = label ? "via " + label : "";
    pubLabel.hidden = !label;
    liveBadge.textContent = feed.live ? "Live" : "Offline";
    liveBadge.classList.toggle("live", feed.live);
    if (feed.error) connStatus.textContent = feed.error;
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    OV.renderTurns(list, feed.events);
    empty.hidden = feed.events.length > 0;
    empty.textContent = s && s.paused === 1 ? "Paused by the streamer." : "No coding activity yet.";
    if (atBottom || added) list.scrollTop = list.scrollHeight;
    // The list is redrawn as a whole; announce only the new event to screen readers.
    if (added) announce.textContent = (OV.typeLabel[added.eventType] || "Event") + ": " + OV.truncate(OV.eventText(added), 140);
  }

  // ---- chat ----

  function addChat(m) {
    if (!m || chatIds.has(m.id)) return;
    chatIds.add(m.id);
    const li = OV.el("li", "chat-msg");
    li.appendChild(OV.el("span", "chat-user", (m.user && m.user.username) || "someone"));
    li.appendChild(OV.el("span", "chat-text", m.text));
    chatList.appendChild(li);
    while (chatList.children.length > 200) chatList.removeChild(chatList.firstChild);
    chatList.scrollTop = chatList.scrollHeight;
  }

  const feed = OV.feed.open({
    username: body.dataset.username,
    slot: body.dataset.slotSlug,
    onChange: render,
    onConnection: (up, welcome) => {
      body.dataset.connected = up ? "true" : "false";
      connStatus.textContent = up ? "Connected" : "Reconnecting…";
      if (up) {
        chatForm.hidden = !welcome.user;
        chatLogin.hidden = !!welcome.user;
      }
    },
    onFrame: (msg) => {
      switch (msg.type) {
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
    },
  });

  chatForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = chatInput.value.trim();
    if (!text || !feed.send({ type: "chat.send", text: text })) return;
    chatInput.value = "";
    chatError.hidden = true;
  });
})();
