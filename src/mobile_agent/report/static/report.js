// Keyboard stepping through the frames of a mobile-agent run report.
(function () {
  "use strict";
  var frames = Array.prototype.slice.call(document.querySelectorAll("section.frame"));
  var thumbs = {};
  Array.prototype.forEach.call(document.querySelectorAll(".thumb[data-target]"), function (t) { thumbs[t.dataset.target] = t; });
  if (!frames.length) { return; }
  var cur = -1, navAt = 0;
  var strip = document.getElementById("filmstrip");
  function go(i, scroll, record) {
    i = Math.max(0, Math.min(frames.length - 1, i));
    if (cur >= 0) {
      frames[cur].classList.remove("current");
      if (thumbs[frames[cur].id]) { thumbs[frames[cur].id].classList.remove("current"); }
    }
    cur = i;
    var f = frames[i];
    f.classList.add("current");
    document.body.dataset.current = f.id;
    var t = thumbs[f.id];
    if (t) {
      t.classList.add("current");
      t.scrollIntoView({ block: "nearest", inline: "nearest" });
    }
    if (scroll) { f.scrollIntoView({ block: "start" }); navAt = Date.now(); }
    // the address names the step only when the reader moved to it: opening the page leaves it alone
    if (record && history.replaceState) { history.replaceState(null, "", "#" + f.id); }
  }
  // the filmstrip follows scrolling: the current frame is the first one below the filmstrip
  var pending = false;
  function follow() {
    pending = false;
    if (Date.now() - navAt < 500) { return; }
    var line = (strip ? strip.getBoundingClientRect().bottom : 0) + 40, best = 0;
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].getBoundingClientRect().top <= line) { best = i; } else { break; }
    }
    if (window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2) {
      for (var j = frames.length - 1; j > best; j--) {
        if (frames[j].getBoundingClientRect().top < window.innerHeight) { best = j; break; }
      }
    }
    if (best !== cur) { go(best, false, false); }
  }
  window.addEventListener("scroll", function () {
    if (!pending) { pending = true; window.requestAnimationFrame(follow); }
  }, { passive: true });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    var k = e.key;
    if (k === "ArrowRight" || k === "j") { go(cur + 1, true, true); }
    else if (k === "ArrowLeft" || k === "k") { go(cur - 1, true, true); }
    else if (k === "Home") { go(0, true, true); }
    else if (k === "End") { go(frames.length - 1, true, true); }
    else if (k === "o") { document.body.classList.toggle("no-overlay"); return; }
    else { return; }
    e.preventDefault();
  });
  Object.keys(thumbs).forEach(function (id) {
    thumbs[id].addEventListener("click", function (e) {
      var i = frames.findIndex(function (f) { return f.id === id; });
      if (i >= 0) { e.preventDefault(); go(i, true, true); }
    });
  });
  frames.forEach(function (f, i) { f.addEventListener("click", function () { go(i, false, true); navAt = Date.now(); }); });
  var start = frames.findIndex(function (f) { return "#" + f.id === location.hash; });
  go(start >= 0 ? start : 0, start >= 0, false);
})();
