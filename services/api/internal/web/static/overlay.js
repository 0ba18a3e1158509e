// OBS overlay: the slot's vibe-coding widget alone, on a transparent page, sized and themed
// by the overlay URL's query parameters (read and checked by the server into data-*).
"use strict";

(function () {
  const OV = window.OpenVibe;
  const body = document.body;
  const d = body.dataset;
  const $ = (id) => document.getElementById(id);
  const widget = $("vibe-widget");
  const list = $("vibe-events");
  const empty = $("vibe-empty");
  const title = $("vibe-title");
  const pubLabel = $("vibe-publisher");

  // Size and text scale: set through the CSSOM (inline style attributes are not allowed).
  const root = document.documentElement.style;
  root.setProperty("--overlay-width", d.width + "px");
  root.setProperty("--overlay-font", d.font + "px");
  if (+d.height > 0) root.setProperty("--overlay-height", d.height + "px");

  function render(feed) {
    const s = feed.settings;
    const shown = !s || (s.enabled === 1 && s.paused === 0);
    if (s) title.textContent = s.widget_title || "Vibe Coding";
    const label = OV.publisherLabel(feed.publisher);
    pubLabel.textContent = label ? "via " + label : "";
    pubLabel.hidden = !label;
    OV.renderTurns(list, shown ? feed.events : []);
    const none = !shown || feed.events.length === 0;
    empty.hidden = !none || d.empty !== "true";
    empty.textContent = s && s.paused === 1 ? "Paused" : "No coding activity yet.";
    widget.hidden = none && d.empty !== "true";
    list.scrollTop = list.scrollHeight; // the newest entry is always in view
  }

  OV.feed.open({
    username: d.username,
    slot: d.slotSlug,
    maxEvents: +d.max || 0,
    onChange: render,
    onConnection: (up) => { body.dataset.connected = up ? "true" : "false"; },
  });
})();
