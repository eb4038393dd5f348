/* The review desk's script (docs/dashboard.md#the-review-desk): the new-article form's price, asked
   again as the form changes, and one send per form. Served from this origin under a CSP without
   'unsafe-inline'; it builds DOM with textContent only. Without it the form still works: the price
   is rendered for the defaults, and a second send of the same form replays the first (its idempotency key). */
"use strict";
(function () {
  var form = document.getElementById("new-article-form");
  if (!form) return;

  // ------------------------------------------------------------ price, before sending
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

  // ------------------------------------------------------------ one send per form (a double click sends once)
  form.addEventListener("submit", function (e) {
    if (form.getAttribute("data-sent")) {
      e.preventDefault();
      return;
    }
    form.setAttribute("data-sent", "true");
    var button = document.getElementById("write-article");
    if (button) button.textContent = "Sending…";
  });
})();
