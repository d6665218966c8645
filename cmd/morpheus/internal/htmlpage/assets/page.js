// Enhancements of htmlpage pages; the page reads without them.
(function () {
  "use strict";

  // Sortable tables: a click on a header sorts by that column, again reverses.
  function cellValue(row, i, numeric) {
    var text = row.cells[i] ? row.cells[i].textContent.trim() : "";
    if (!numeric) return text;
    var m = text.replace(/,/g, "").match(/^-?[0-9.]+(e[-+]?[0-9]+)?/i);
    if (!m) return -Infinity;
    var v = parseFloat(m[0]);
    var suffix = text.charAt(m[0].length);
    if (suffix === "k") v *= 1e3; else if (suffix === "M") v *= 1e6; else if (suffix === "G") v *= 1e9;
    return v;
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    var heads = table.tHead ? table.tHead.rows[0].cells : [];
    Array.prototype.forEach.call(heads, function (th, i) {
      th.addEventListener("click", function () {
        var asc = !th.classList.contains("asc");
        Array.prototype.forEach.call(heads, function (h) { h.classList.remove("asc", "desc"); });
        th.classList.add(asc ? "asc" : "desc");
        var numeric = th.classList.contains("num");
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.forEach(function (r, k) { r.dataset.pos = r.dataset.pos || String(k); });
        rows.sort(function (a, b) {
          var x = cellValue(a, i, numeric), y = cellValue(b, i, numeric);
          var c = x < y ? -1 : x > y ? 1 : (+a.dataset.pos) - (+b.dataset.pos);
          return asc ? c : -c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });

  // Linked elements: everything with the same data-ref highlights together on
  // hover; a click pins the highlight and scrolls the partners into view.
  var byRef = {};
  document.querySelectorAll("[data-ref]").forEach(function (el) {
    var ref = el.getAttribute("data-ref");
    (byRef[ref] = byRef[ref] || []).push(el);
  });
  function set(ref, cls, on) {
    (byRef[ref] || []).forEach(function (el) { el.classList.toggle(cls, on); });
  }
  var pinned = null;
  Object.keys(byRef).forEach(function (ref) {
    byRef[ref].forEach(function (el) {
      el.addEventListener("mouseenter", function () { set(ref, "hot", true); });
      el.addEventListener("mouseleave", function () { set(ref, "hot", false); });
      el.addEventListener("click", function () {
        if (pinned !== null) set(pinned, "pinned", false);
        pinned = pinned === ref ? null : ref;
        if (pinned === null) return;
        set(ref, "pinned", true);
        byRef[ref].forEach(function (other) {
          if (other !== el && other.scrollIntoView) other.scrollIntoView({ block: "nearest" });
        });
      });
    });
  });

  document.body.setAttribute("data-ready", "1");
})();
