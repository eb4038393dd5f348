/* The dashboard's only script (docs/dashboard.md): copy buttons, the usage chart, live job stages.
   Served from this origin under a CSP without 'unsafe-inline'; it builds DOM with textContent only. */
"use strict";
(function () {
  // ------------------------------------------------------------ copy buttons: data-copy="<id of the element to copy>"
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var source = document.getElementById(button.getAttribute("data-copy"));
      if (!source) return;
      var text = source.textContent;
      var copied = function () {
        button.textContent = "Copied";
        setTimeout(function () { button.textContent = "Copy"; }, 2000);
      };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(copied, function () { selectText(source); });
      } else {
        selectText(source);
      }
    });
  });

  function selectText(el) {
    var range = document.createRange();
    range.selectNodeContents(el);
    var sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
  }

  // ------------------------------------------------------------ usage chart (uPlot, served locally)
  var chartEl = document.getElementById("usage-chart");
  if (chartEl && window.uPlot) drawUsage(chartEl, JSON.parse(chartEl.getAttribute("data-usage")));

  function drawUsage(el, data) {
    var xs = data.days.map(function (d) { return Date.parse(d + "T00:00:00Z") / 1000; });
    var bars = window.uPlot.paths && window.uPlot.paths.bars ? window.uPlot.paths.bars({ size: [0.6, 40] }) : undefined;
    var DAY = 86400;
    var MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    var dayLabel = function (ts) {
      var d = new Date(ts * 1000);
      return MONTHS[d.getUTCMonth()] + " " + d.getUTCDate();
    };
    var fromZero = function (u, min, max) { return [0, Math.max(1, max)]; };
    var opts = {
      width: Math.max(320, el.clientWidth),
      height: 320,
      legend: { live: false },
      cursor: { points: { size: 7 } },
      scales: {
        // Half a day of room on each side, so that the first and last days' bars are whole.
        x: { time: false, range: function (u, min, max) { return [min - DAY / 2, max + DAY / 2]; } },
        y: { range: fromZero },
        tokens: { range: fromZero },
      },
      series: [
        { label: "Day", value: function (u, ts) { return ts == null ? "" : dayLabel(ts); } },
        { label: "Credits", stroke: "#7c3aed", fill: "rgba(124,58,237,0.25)", width: 1, paths: bars, points: { show: false } },
        { label: "Requests", stroke: "#0e7490", width: 2, points: { size: 5 } },
        { label: "Tokens", stroke: "#d97706", width: 2, dash: [6, 4], scale: "tokens", points: { size: 5 } },
      ],
      axes: [
        {
          // Whole days only: one tick a day, or every 2, 7, 14 or 30 days when they would crowd.
          incrs: [DAY, 2 * DAY, 7 * DAY, 14 * DAY, 30 * DAY],
          space: 56,
          values: function (u, splits) { return splits.map(dayLabel); },
        },
        { label: "credits · requests", size: 60 },
        { label: "tokens", scale: "tokens", side: 1, size: 70, grid: { show: false } },
      ],
    };
    var plot = new window.uPlot(opts, [xs, data.credits, data.requests, data.tokens], el);
    el.setAttribute("data-drawn", String(xs.length));
    window.addEventListener("resize", function () { plot.setSize({ width: Math.max(320, el.clientWidth), height: 320 }); });
  }

  // ------------------------------------------------------------ live job stages
  /**
   * The one place that learns about a running job's changes: it calls onJob({job, article}) with
   * each new state and stops once the job has ended. It follows the job's live event stream (the
   * gateway's job-event hub, as GET /v1/jobs/{id}/events: no polling while the job runs); when the
   * job ends, the JSON view is read once for the article it produced. A browser without
   * EventSource polls the JSON view every 2 s instead.
   */
  var FINAL = { "job.succeeded": true, "job.failed": true, "job.canceled": true };

  function readJob(url, onJob, then) {
    fetch(url, { credentials: "same-origin", headers: { accept: "application/json" } })
      .then(function (res) { return res.ok ? res.json() : null; })
      .then(function (state) { if (state) onJob(state); then(state); })
      .catch(function () { then(null); });
  }

  function watchJob(url, onJob) {
    if (typeof window.EventSource !== "function") return pollJob(url, onJob);
    var stream = new window.EventSource(url.replace(/\/live$/, "/events"));
    function onEvent(e) {
      var job = JSON.parse(e.data);
      if (FINAL[e.type]) {
        stream.close();
        readJob(url, onJob, function (state) { if (!state) onJob({ job: job, article: null }); });
      } else {
        onJob({ job: job, article: null });
      }
    }
    ["job.snapshot", "job.progress", "job.succeeded", "job.failed", "job.canceled"].forEach(function (name) {
      stream.addEventListener(name, onEvent);
    });
  }

  function pollJob(url, onJob) {
    readJob(url, onJob, function (state) {
      if (state && state.job.status !== "queued" && state.job.status !== "processing") return;
      setTimeout(function () { pollJob(url, onJob); }, 2000);
    });
  }

  var TONE = { queued: "wait", processing: "wait", succeeded: "ok", failed: "off", canceled: "off" };

  document.querySelectorAll("tr.job[data-live]").forEach(function (row) {
    watchJob(row.getAttribute("data-live"), function (state) { renderJob(row, state); });
  });

  function renderJob(row, state) {
    var job = state.job;
    var status = row.querySelector(".job-status");
    var badge = document.createElement("span");
    badge.className = "badge badge-" + (TONE[job.status] || "wait");
    badge.textContent = job.status;
    status.replaceChildren(badge);

    var list = row.querySelector("ol.stages");
    var items = job.stages.map(function (s) {
      var li = document.createElement("li");
      li.className = "stage stage-" + s.status;
      li.title = s.status;
      li.textContent = s.label;
      return li;
    });
    list.replaceChildren.apply(list, items);

    var result = row.querySelector(".job-result");
    if (state.article) {
      var a = document.createElement("a");
      a.className = "article-link";
      a.href = state.article.url;
      a.textContent = state.article.title;
      result.replaceChildren(a);
    } else if (job.error) {
      var span = document.createElement("span");
      span.className = "muted job-error";
      span.textContent = job.error;
      var parts = [span];
      // A failed or canceled job gives its credits back (docs/jobs.md).
      if (job.credits_charged > 0 && (job.status === "failed" || job.status === "canceled")) {
        var refund = document.createElement("span");
        refund.className = "refund";
        refund.textContent = " " + job.credits_charged + " credits refunded.";
        parts.push(refund);
      }
      result.replaceChildren.apply(result, parts);
    }
    row.setAttribute("data-status", job.status);
  }
})();
