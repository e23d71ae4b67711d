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
})();
