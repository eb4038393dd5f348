/* The review desk's script (docs/dashboard.md#the-review-desk): the new-article form's price, asked
   again as the form changes, and one send per form; a brand profile's sources followed while they are
   ingested. Served from this origin under a CSP without 'unsafe-inline'; it builds DOM with textContent,
   or takes nodes from this page as the server renders it again. Without it everything still works: the
   price is rendered for the defaults, a second send of the same form replays the first (its idempotency
   key), and a reload shows a source's status. */
"use strict";
(function () {
  var form = document.getElementById("new-article-form");
  if (form) priceAndOneSend(form);
  var following = document.querySelectorAll("tr[data-source-id][data-follow]");
  if (following.length) following.forEach(followSource);

  function priceAndOneSend(form) {
    // ---------------------------------------------------------- price, before sending
    var price = document.getElementById("price");
    var timer = null;
    var asked = 0;

    function query() {
      var q = new URLSearchParams();
      q.set("mode", form.elements.mode.value);
      q.set("language", form.elements.language.value);
      if (form.elements.image.checked) q.set("image", "on");
      form.querySelectorAll("input[name=derivatives]:checked").forEach(function (box) { q.append("derivatives", box.value); });
      return q.toString();
    }

    function showPrice(answer) {
      var label = document.createTextNode("Price: ");
      if (answer && answer.credits !== null) {
        var strong = document.createElement("strong");
        strong.id = "price-credits";
        strong.textContent = answer.text;
        price.replaceChildren(label, strong);
      } else {
        var muted = document.createElement("span");
        muted.className = "muted";
        muted.textContent = "shown once the form is valid";
        price.replaceChildren(label, muted);
      }
    }

    function askPrice() {
      var mine = ++asked;
      fetch(form.getAttribute("data-price-url") + "?" + query(), { credentials: "same-origin", headers: { accept: "application/json" } })
        .then(function (res) { return res.ok ? res.json() : null; })
        .then(function (answer) { if (mine === asked) showPrice(answer); })
        .catch(function () { if (mine === asked) showPrice(null); });
    }

    function onChange(e) {
      var name = e.target && e.target.name;
      if (name !== "mode" && name !== "language" && name !== "image" && name !== "derivatives") return;
      clearTimeout(timer);
      timer = setTimeout(askPrice, 200);
    }
    form.addEventListener("change", onChange);
    form.addEventListener("input", onChange);

    // ---------------------------------------------------------- one send per form (a double click sends once)
    form.addEventListener("submit", function (e) {
      if (form.getAttribute("data-sent")) {
        e.preventDefault();
        return;
      }
      form.setAttribute("data-sent", "true");
      var button = document.getElementById("write-article");
      if (button) button.textContent = "Sending…";
    });
  }

  // ------------------------------------------------------------ a source being ingested, followed live
  /**
   * Follows the source's ingest job on its event stream (as the jobs page follows a job); while it runs
   * the badge says the job's status. When it ends, this page is read again until the server shows the
   * source settled (the source is updated as the job finishes), and the row, the profile's counts, its
   * voice and its fact sheet are taken from that page: nothing the person is typing is touched.
   */
  var FINAL = { succeeded: true, failed: true, canceled: true };

  function followSource(row) {
    var id = row.getAttribute("data-source-id");
    if (typeof window.EventSource !== "function") return;
    var stream = new window.EventSource(row.getAttribute("data-follow"));
    function onEvent(e) {
      var job = JSON.parse(e.data);
      if (FINAL[job.status]) {
        stream.close();
        settle(id, 0);
      } else {
        var badge = row.querySelector(".source-status .badge");
        if (badge) badge.textContent = job.status === "queued" ? "pending" : "processing";
      }
    }
    ["job.snapshot", "job.progress", "job.succeeded", "job.failed", "job.canceled"].forEach(function (name) {
      stream.addEventListener(name, onEvent);
    });
  }

  function settle(id, tries) {
    fetch(window.location.pathname, { credentials: "same-origin", headers: { accept: "text/html" } })
      .then(function (res) { return res.ok ? res.text() : null; })
      .then(function (text) {
        if (text === null) return;
        var fresh = new DOMParser().parseFromString(text, "text/html");
        var row = fresh.querySelector('tr[data-source-id="' + id + '"]');
        if (!row || row.hasAttribute("data-follow")) {
          if (tries < 20) setTimeout(function () { settle(id, tries + 1); }, 500);
          return;
        }
        swap('tr[data-source-id="' + id + '"]', row);
        ["#profile-facts", "#voice", "#fact-sheet"].forEach(function (selector) {
          var node = fresh.querySelector(selector);
          if (node) swap(selector, node);
        });
      })
      .catch(function () { if (tries < 20) setTimeout(function () { settle(id, tries + 1); }, 500); });
  }

  function swap(selector, node) {
    var current = document.querySelector(selector);
    if (current) current.replaceWith(document.importNode(node, true));
  }
})();
