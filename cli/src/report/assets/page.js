// Filters of the agent-test report: by status (all, failed, flaky, passed), by file, by tag,
// and by text. Everything is in the page; nothing is fetched.
(function () {
  "use strict";
  var scenarios = Array.prototype.slice.call(document.querySelectorAll("details.scenario"));
  var buttons = Array.prototype.slice.call(document.querySelectorAll("button[data-filter]"));
  var group = document.getElementById("group");
  var tag = document.getElementById("tag");
  var search = document.getElementById("search");
  var shown = document.getElementById("shown");
  var state = { filter: "all", group: "", tag: "", text: "" };

  function matches(el) {
    var d = el.dataset;
    if (state.filter === "failed" && d.status !== "failed") return false;
    if (state.filter === "passed" && d.status !== "passed") return false;
    if (state.filter === "flaky" && d.flaky !== "1") return false;
    if (state.group && d.group !== state.group) return false;
    // Tags are words (no spaces): the attribute lists them separated by spaces.
    if (state.tag && (" " + d.tags + " ").indexOf(" " + state.tag + " ") < 0) return false;
    if (state.text && el.textContent.toLowerCase().indexOf(state.text) < 0) return false;
    return true;
  }

  function apply() {
    var n = 0;
    scenarios.forEach(function (el) {
      var ok = matches(el);
      el.hidden = !ok;
      if (ok) n += 1;
    });
    if (shown) shown.textContent = "Showing " + n + " of " + scenarios.length + " scenarios";
    buttons.forEach(function (b) {
      b.classList.toggle("active", b.dataset.filter === state.filter);
    });
  }

  buttons.forEach(function (b) {
    b.addEventListener("click", function () {
      state.filter = b.dataset.filter;
      // The filter is kept in the address (report.html#failed), to share or reload.
      try {
        history.replaceState(null, "", "#" + state.filter);
      } catch (e) {
        // Some browsers refuse it for file: pages; the filter still applies.
      }
      apply();
    });
  });
  // The state as the page shows it: the filter in the address, and what the browser put back
  // in the fields (it restores them on reload and on going back).
  function fromPage() {
    var wanted = (location.hash || "").replace("#", "");
    if (["all", "failed", "flaky", "passed"].indexOf(wanted) >= 0) state.filter = wanted;
    if (group) state.group = group.value;
    if (tag) state.tag = tag.value;
    if (search) state.text = search.value.trim().toLowerCase();
    apply();
  }
  window.addEventListener("hashchange", fromPage);
  window.addEventListener("pageshow", fromPage);
  if (group) group.addEventListener("change", function () { state.group = group.value; apply(); });
  if (tag) tag.addEventListener("change", function () { state.tag = tag.value; apply(); });
  if (search) search.addEventListener("input", function () {
    state.text = search.value.trim().toLowerCase();
    apply();
  });
  var expand = document.getElementById("expand");
  var collapse = document.getElementById("collapse");
  if (expand) expand.addEventListener("click", function () {
    scenarios.forEach(function (el) { if (!el.hidden) el.open = true; });
  });
  if (collapse) collapse.addEventListener("click", function () {
    scenarios.forEach(function (el) { el.open = false; });
  });
  fromPage();
  labelling();
})();

// Labelling the judge: each graded judge verdict can be marked right or wrong; "Export labels"
// writes the marked ones as the JSON lines `agent-test judge calibrate` reads (and offers
// them as labels.jsonl). The human's label is the judge's verdict when marked right, the
// other one when marked wrong.
function labelling() {
  "use strict";
  var data = document.getElementById("labels-data");
  var button = document.getElementById("export-labels");
  var out = document.getElementById("labels-out");
  var count = document.getElementById("marked");
  if (!data || !button || !out) return;
  var labels = JSON.parse(data.textContent);
  var marks = {};
  button.hidden = false;
  function marked() {
    return Object.keys(marks).filter(function (k) { return marks[k]; })
      .sort(function (a, b) { return a - b; });
  }
  Array.prototype.forEach.call(document.querySelectorAll("[data-candidate]"), function (box) {
    var pair = box.querySelectorAll("button[data-mark]");
    Array.prototype.forEach.call(pair, function (b) {
      b.addEventListener("click", function () {
        var i = box.dataset.candidate;
        // A second click on the same mark takes it back.
        marks[i] = marks[i] === b.dataset.mark ? "" : b.dataset.mark;
        Array.prototype.forEach.call(pair, function (x) {
          x.classList.toggle("active", marks[i] === x.dataset.mark);
        });
        if (count) count.textContent = String(marked().length);
      });
    });
  });
  button.addEventListener("click", function () {
    var lines = marked().map(function (k) {
      var c = labels.candidates[k];
      var other = c.judge === "pass" ? "fail" : "pass";
      return JSON.stringify({
        id: c.id,
        check: c.check,
        scope: c.scope,
        transcript: labels.transcripts[c.transcript],
        label: marks[k] === "right" ? c.judge : other
      });
    });
    out.value = lines.length ? lines.join("\n") + "\n" : "";
    out.hidden = false;
    try {
      var link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([out.value], { type: "application/x-ndjson" }));
      link.download = "labels.jsonl";
      document.body.appendChild(link);
      link.click();
      link.remove();
    } catch (e) {
      // Without downloads (some file: pages), the lines are in the text box to copy.
    }
  });
}
