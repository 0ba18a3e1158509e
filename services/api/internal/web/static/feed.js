// A slot's live vibe-coding feed for a page: hydrated from the public feed, then following the
// chat socket (with the server's delay, depth and sanitizing already applied), resuming after
// a dropped connection without duplicates. Used by the viewer page and the OBS overlay.
"use strict";

(function () {
  const OV = window.OpenVibe;

  // parseFrames reads one WebSocket message: one JSON object, or several joined with "\n".
  function parseFrames(data) {
    const out = [];
    for (const line of String(data).split("\n")) {
      if (!line.trim()) continue;
      try { out.push(JSON.parse(line)); } catch (e) { /* not a frame */ }
    }
    return out;
  }

  // open starts following a slot. opts: username, slot, maxEvents (a cap over the slot's
  // max_events, or 0), onChange(feed, added) after every change (added: the event just
  // arrived, if any), onFrame(msg) for frames the feed does not handle itself (chat),
  // onConnection(connected).
  function open(opts) {
    const feedURL = "/api/vibe-coding/channel/" + encodeURIComponent(opts.username) + "/" + encodeURIComponent(opts.slot) + "/events?limit=100";
    const feed = {
      settings: null,
      publisher: null,
      live: false,
      events: [], // projected events with seq, oldest first
      lastSeq: 0, // highest seq seen, for ?since= on reconnect
      ws: null,
      retry: 0,
      hydrating: null,
      arrivedDuringHydrate: null, // live events received while a feed reload is in flight
      hydrateAgain: false,
    };

    function changed(added) {
      const cap = Math.min((feed.settings && feed.settings.max_events) || 18, opts.maxEvents || Infinity);
      if (feed.events.length > cap) feed.events = feed.events.slice(-cap);
      if (opts.onChange) opts.onChange(feed, added);
    }

    function addEvent(ev, seq) {
      if (!ev || !ev.eventId) return;
      if (seq) feed.lastSeq = Math.max(feed.lastSeq, seq);
      if (feed.events.some((e) => e.eventId === ev.eventId)) return; // duplicate after a resume
      const item = Object.assign({}, ev, { seq: seq || 0 });
      if (feed.arrivedDuringHydrate) feed.arrivedDuringHydrate.push(item);
      if (ev.publisher && OV.publisherLabel(ev.publisher)) feed.publisher = ev.publisher;
      // keep seq order even if frames race with a feed reload
      let i = feed.events.length;
      while (i > 0 && item.seq && feed.events[i - 1].seq > item.seq) i--;
      feed.events.splice(i, 0, item);
      changed(item);
    }

    function removeEvent(eventId) {
      const before = feed.events.length;
      feed.events = feed.events.filter((e) => e.eventId !== eventId);
      if (feed.events.length !== before) changed(null);
    }

    // hydrate loads the public feed; events the socket delivered meanwhile are kept.
    async function hydrate() {
      if (feed.hydrating) {
        // A reload is in flight but may predate what triggered this one (a settings change):
        // load again once it ends.
        feed.hydrateAgain = true;
        return feed.hydrating;
      }
      feed.arrivedDuringHydrate = [];
      feed.hydrating = (async () => {
        try {
          const data = await OV.api("GET", feedURL);
          feed.settings = data.settings;
          if (data.publisher) feed.publisher = data.publisher;
          const top = data.events.reduce((m, e) => Math.max(m, e.seq || 0), 0);
          // The feed replaces what is on screen; only frames that arrived while it was loading
          // and are newer than it are kept on top.
          const later = feed.arrivedDuringHydrate.filter((e) => e.seq > top && !data.events.some((f) => f.eventId === e.eventId));
          feed.events = data.events.concat(later);
          feed.lastSeq = Math.max(feed.lastSeq, top);
          feed.live = !!data.live_stream_id;
          feed.error = null;
          changed(null);
        } catch (e) {
          feed.error = "Could not load the feed";
          changed(null);
        } finally {
          feed.arrivedDuringHydrate = null;
          feed.hydrating = null;
        }
        if (feed.hydrateAgain) {
          feed.hydrateAgain = false;
          await hydrate();
        }
      })();
      return feed.hydrating;
    }

    function socketURL() {
      const proto = location.protocol === "https:" ? "wss:" : "ws:";
      let url = proto + "//" + location.host + "/ws/chat/" + encodeURIComponent(opts.username) + "/" + encodeURIComponent(opts.slot);
      if (feed.lastSeq > 0) url += "?since=" + feed.lastSeq;
      return url;
    }

    function onFrame(msg) {
      switch (msg.type) {
        case "welcome":
          feed.retry = 0;
          if (msg.settings) feed.settings = msg.settings;
          feed.live = !!msg.live_stream_id;
          if (opts.onConnection) opts.onConnection(true, msg);
          changed(null);
          break;
        case "vibe-coding":
          addEvent(msg.event, msg.seq);
          break;
        case "vibe-coding.settings":
          feed.settings = msg.settings;
          feed.live = !!msg.live_stream_id;
          changed(null);
          hydrate(); // re-project what is on screen with the new settings
          break;
        case "vibe-coding.retract":
          removeEvent(msg.eventId || msg.event_id);
          break;
        case "reset":
          if (msg.seq) feed.lastSeq = Math.max(feed.lastSeq, msg.seq);
          hydrate();
          break;
        default:
          if (opts.onFrame) opts.onFrame(msg);
      }
    }

    function connect() {
      const ws = new WebSocket(socketURL());
      feed.ws = ws;
      ws.addEventListener("message", (e) => parseFrames(e.data).forEach(onFrame));
      ws.addEventListener("close", () => {
        if (feed.ws !== ws) return;
        if (opts.onConnection) opts.onConnection(false, null);
        feed.retry = Math.min(feed.retry + 1, 6);
        const wait = Math.min(15000, 500 * Math.pow(2, feed.retry - 1)) * (0.75 + Math.random() * 0.5);
        setTimeout(connect, wait);
      });
    }

    feed.send = (obj) => {
      if (!feed.ws || feed.ws.readyState !== WebSocket.OPEN) return false;
      feed.ws.send(JSON.stringify(obj));
      return true;
    };
    hydrate().then(connect);
    return feed;
  }

  OV.feed = { open: open, parseFrames: parseFrames };
})();
