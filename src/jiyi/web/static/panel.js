/* jiyi panel: small progressive enhancements. Every page works without this file
   except the graph canvas (the entity list beside it has the same data). */
(function () {
  "use strict";

  function selectAll(event) {
    var box = event.target;
    if (!box.matches || !box.matches("[data-select-all]")) return;
    var name = box.getAttribute("data-select-all");
    document.querySelectorAll('input[type=checkbox][name="' + name + '"]').forEach(function (el) {
      el.checked = box.checked;
    });
  }

  var KIND_COLORS = {
    fact: "#2563eb", preference: "#db2777", event: "#d97706", relation: "#059669",
    episode: "#6b7280", summary: "#7c3aed", behavior: "#0891b2"
  };
  var ENTITY_COLORS = { person: "#059669", place: "#d97706", org: "#7c3aed", number: "#6b7280", thing: "#2563eb" };

  function drawGraph() {
    var box = document.getElementById("graph");
    var data = document.getElementById("graph-data");
    if (!box || !data || typeof window.cytoscape !== "function") return;
    var elements = JSON.parse(data.textContent);
    var cy = window.cytoscape({
      container: box,
      elements: elements.nodes.concat(elements.edges),
      style: [
        { selector: "node", style: { "label": "data(label)", "font-size": 11, "text-wrap": "ellipsis",
          "text-max-width": 120, "color": "#111827", "text-valign": "bottom", "text-margin-y": 3 } },
        { selector: "node[group = 'entity']", style: {
          "background-color": function (n) { return ENTITY_COLORS[n.data("type")] || "#2563eb"; },
          "width": function (n) { return 18 + 6 * Math.min(n.data("weight"), 8); },
          "height": function (n) { return 18 + 6 * Math.min(n.data("weight"), 8); },
          "font-weight": "bold", "font-size": 13 } },
        { selector: "node[group = 'memory']", style: { "shape": "round-rectangle", "width": 12, "height": 12,
          "font-size": 9, "text-max-width": 96, "min-zoomed-font-size": 7,
          "background-color": function (n) { return KIND_COLORS[n.data("kind")] || "#6b7280"; },
          "color": "#374151" } },
        { selector: "node[status != 'active'][group = 'memory']", style: { "opacity": 0.45 } },
        { selector: "edge", style: { "width": 1.5, "line-color": "#cbd5e1", "curve-style": "haystack" } },
        { selector: ".faded", style: { "opacity": 0.15 } },
        { selector: "node:selected", style: { "border-width": 3, "border-color": "#111827" } }
      ],
      layout: { name: "cose", animate: false, randomize: false, nodeRepulsion: 9000, idealEdgeLength: 70,
        padding: 20 }
    });
    cy.on("tap", "node", function (evt) {
      var node = evt.target;
      if (node.data("group") === "memory") {
        window.location.href = box.getAttribute("data-memory-url") + node.id().slice(2) + "?" +
          box.getAttribute("data-user-q");
        return;
      }
      cy.elements().addClass("faded");
      node.closedNeighborhood().removeClass("faded");
    });
    cy.on("tap", function (evt) { if (evt.target === cy) cy.elements().removeClass("faded"); });
    box.setAttribute("data-ready", String(cy.nodes().length));
    window.jiyiGraph = cy;
  }

  // A refused htmx request (403 CSRF, 404, 422 …) shows the server's error page in <main>
  // instead of silently doing nothing.
  function showErrors(evt) {
    var status = evt.detail.xhr.status;
    var main = document.getElementById("main");
    if (status < 400 || !main) return;
    evt.detail.shouldSwap = true;
    evt.detail.isError = false;
    evt.detail.target = main;
    evt.detail.swapOverride = "outerHTML";
    evt.detail.selectOverride = "#main";
  }

  document.addEventListener("change", selectAll);
  document.addEventListener("htmx:beforeSwap", showErrors);
  document.addEventListener("htmx:afterSwap", function (evt) {
    var focus = evt.detail.target && evt.detail.target.isConnected ? evt.detail.target : document;
    var el = (focus.querySelector && focus.querySelector("[autofocus]")) ||
      document.querySelector(".editing [autofocus]");
    if (el) el.focus();
  });
  // Deferred scripts (cytoscape after this one) have all run by DOMContentLoaded.
  if (document.readyState === "complete") {
    drawGraph();
  } else {
    document.addEventListener("DOMContentLoaded", drawGraph);
  }
})();
