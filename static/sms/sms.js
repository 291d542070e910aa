/* SMS pages: the live template check and the campaign progress bar.
   No user-facing text here: the server sends it translated. */
(function () {
  "use strict";

  function csrfToken(form) {
    var input = form.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function paragraphs(container, items) {
    container.textContent = "";
    items.forEach(function (item) {
      var p = document.createElement("p");
      p.className = item.severity || "";
      p.textContent = item.text;
      container.appendChild(p);
    });
  }

  function setupTemplateCheck(form) {
    var url = form.dataset.checkUrl;
    var timer = null;
    var sequence = 0;
    // Fields the person has changed. The others show no live problem: an empty new form is
    // not wrong yet, and after a submit the server's errors are already shown (once).
    var touched = {};
    function payload() {
      var body = new FormData(form);
      // Disabled fields (type and channel when editing) are not submitted, but the check
      // needs their values, or it would call them missing.
      form.querySelectorAll("[name][disabled]").forEach(function (input) {
        if (!body.has(input.name)) { body.append(input.name, input.value); }
      });
      return body;
    }
    function showAcceptance() {
      var type = form.querySelector("[name=type]");
      var acceptance = form.querySelector('.field[data-field="accept_failing"]');
      if (type && acceptance) { acceptance.hidden = type.value !== "marketing"; }
      // A marketing template always skips suppressed numbers: words instead of a checkbox.
      var respect = form.querySelector('.field[data-field="respect_suppression"]');
      var always = document.getElementById("suppression-always");
      if (type && respect) { respect.hidden = type.value === "marketing"; }
      if (type && always) { always.hidden = type.value !== "marketing"; }
    }
    function check() {
      var mine = ++sequence;
      showAcceptance();
      fetch(url, {
        method: "POST",
        body: payload(),
        headers: { "X-CSRFToken": csrfToken(form) },
        credentials: "same-origin"
      }).then(function (response) {
        return response.ok ? response.json() : null;
      }).then(function (data) {
        if (!data || mine !== sequence) { return; }
        var byField = {};
        var other = [];
        data.problems.forEach(function (problem) {
          if (form.querySelector('.live-problems[data-for="' + problem.field + '"]')) {
            (byField[problem.field] = byField[problem.field] || []).push(problem);
          } else {
            other.push(problem);
          }
        });
        form.querySelectorAll(".live-problems").forEach(function (box) {
          paragraphs(box, touched[box.dataset.for] ? (byField[box.dataset.for] || []) : []);
        });
        paragraphs(document.getElementById("preview-problems"), other);
        var text = document.getElementById("preview-text");
        var summary = document.getElementById("preview-summary");
        text.textContent = data.preview ? (data.preview.text || "") : "";
        summary.textContent = data.preview ? data.preview.summary : "";
        document.querySelectorAll(".sample").forEach(function (input) {
          // Not `hidden`: the stylesheet's display rule for labels would override it.
          input.closest("label").style.display =
            Number(input.dataset.sample) > data.variables ? "none" : "";
        });
      }).catch(function () { /* the server-side check on submit still applies */ });
    }
    function schedule() {
      clearTimeout(timer);
      timer = setTimeout(check, 250);
    }
    function edited(event) {
      var name = event.target.name;
      if (name && !touched[name]) {
        touched[name] = true;
        // From now on the live check speaks for this field: drop the server's old errors.
        var old = form.querySelector('.field[data-field="' + name + '"] .errorlist');
        if (old) { old.remove(); }
      }
      showAcceptance();  // at once: the choices of the new type, not 250 ms later
      schedule();
    }
    form.addEventListener("input", edited);
    form.addEventListener("change", edited);
    document.querySelectorAll(".sample").forEach(function (input) {
      input.addEventListener("input", schedule);
    });
    check();
  }

  function setupQueued(card) {
    // A queued campaign that has sent nothing: reload once it starts, for its progress.
    function poll() {
      fetch(card.dataset.progressUrl, { credentials: "same-origin",
                                        headers: { "Accept": "application/json" } })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (data) {
          if (data && data.started) { window.location.reload(); return; }
          setTimeout(poll, 2000);
        })
        .catch(function () { setTimeout(poll, 3000); });
    }
    setTimeout(poll, 2000);
  }

  function setupProgress(card) {
    var url = card.dataset.progressUrl;
    var state = document.getElementById("campaign-state");
    var halt = document.getElementById("campaign-halt");
    var wasRunning = null;
    function show(name, percent, text) {
      var bar = document.getElementById(name + "-progress");
      bar.value = percent;
      bar.textContent = percent + "%";
      document.getElementById(name + "-percent").textContent = percent + "%";
      document.getElementById(name + "-text").textContent = text;
    }
    function poll() {
      fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (data) {
          if (!data) { setTimeout(poll, 3000); return; }
          show("sending", data.sending_percent, data.sending_text);
          show("delivery", data.delivery_percent, data.delivery_text);
          state.textContent = data.state_label;
          state.className = "badge state-" + data.state;
          ["total", "queued", "sent", "delivered", "failed", "unknown", "cancelled"]
            .forEach(function (name) {
              var cell = card.querySelector('[data-count="' + name + '"]');
              if (cell) { cell.textContent = Number(data[name]).toLocaleString(); }
            });
          if (data.halt) { halt.hidden = false; }
          if (wasRunning && !data.running) {
            // Sending finished, halted or was cancelled: reload once for the results and
            // actions; the delivery figures go on updating after the reload.
            window.location.reload();
            return;
          }
          wasRunning = data.running;
          if (data.running) {
            setTimeout(poll, 1000);
          } else if (!data.delivery_done) {
            // Reports arrive about once a minute: no need to ask every second.
            setTimeout(poll, 5000);
          }
        })
        .catch(function () { setTimeout(poll, 3000); });
    }
    setTimeout(poll, 500);
  }

  function setupSubmitOnce(form) {
    // A second submission would be refused by the server (the draft is confirmed once), but
    // it would also abandon the page that shows the first one's result: send it only once.
    var submitting = false;
    form.addEventListener("submit", function (event) {
      if (submitting) {
        event.preventDefault();
        return;
      }
      submitting = true;
      // Disabled only after this event: a disabled button's name would not be submitted.
      setTimeout(function () {
        form.querySelectorAll("button[type=submit]").forEach(function (button) {
          button.disabled = true;
        });
        form.setAttribute("aria-busy", "true");
      }, 0);
    });
    // Back from the next page (bfcache): the form is usable again.
    window.addEventListener("pageshow", function (event) {
      if (!event.persisted) { return; }
      submitting = false;
      form.removeAttribute("aria-busy");
      form.querySelectorAll("button[type=submit]").forEach(function (button) {
        button.disabled = false;
      });
    });
  }

  function minutesOf(hhmm) {
    var parts = hhmm.split(":");
    return Number(parts[0]) * 60 + Number(parts[1]);
  }

  // When a marketing message chosen for `value` (a datetime-local, Asia/Shanghai wall time)
  // really goes out, as "YYYY-MM-DD HH:MM", or null when `value` is inside the window
  // `start`-`end` (end excluded; an end before the start spans midnight), as sms.window says.
  function firstSendTime(value, start, end) {
    var match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value || "");
    if (!match) { return null; }
    var at = Number(match[4]) * 60 + Number(match[5]);
    var open = minutesOf(start), close = minutesOf(end);
    var inside = open < close ? (at >= open && at < close) : (at >= open || at < close);
    if (inside) { return null; }
    var day = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
    if (open <= at) { day.setUTCDate(day.getUTCDate() + 1); }
    function two(n) { return (n < 10 ? "0" : "") + n; }
    return day.getUTCFullYear() + "-" + two(day.getUTCMonth() + 1) + "-" + two(day.getUTCDate())
      + " " + start;
  }

  function setupStartTime(form) {
    // "Send now" needs no time: the time field shows (and is sent) only with "At a date and
    // time". Without this script the field simply stays visible and is ignored for "now".
    var radios = form.querySelectorAll("input[type=radio][name=when]");
    var field = form.querySelector('.field[data-field="start_at"]');
    var input = field ? field.querySelector("input[name=start_at]") : null;
    if (!radios.length || !input) { return; }
    var buttons = form.querySelectorAll("button[data-label-later]");
    var warning = form.querySelector(".window-wait");
    function sync() {
      var later = form.querySelector("input[type=radio][name=when]:checked");
      var show = Boolean(later && later.value === "later");
      field.hidden = !show;
      input.disabled = !show;
      // The button says what it does: send now, or schedule for the chosen time.
      buttons.forEach(function (button) {
        button.textContent = show ? button.dataset.labelLater : button.dataset.labelNow;
      });
      if (warning) {
        var opening = show ? firstSendTime(input.value, warning.dataset.windowStart,
                                           warning.dataset.windowEnd) : null;
        warning.hidden = !opening;
        warning.textContent = opening ? warning.dataset.text.replace("%(when)s", opening) : "";
      }
    }
    radios.forEach(function (radio) { radio.addEventListener("change", sync); });
    input.addEventListener("input", sync);
    input.addEventListener("change", sync);
    sync();
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form[data-submit-once]").forEach(setupSubmitOnce);
    document.querySelectorAll("form").forEach(setupStartTime);
    var form = document.getElementById("template-form");
    if (form) { setupTemplateCheck(form); }
    var queued = document.getElementById("campaign-queued");
    if (queued) { setupQueued(queued); }
    var card = document.getElementById("campaign-progress-card");
    if (card && card.dataset.running) { setupProgress(card); }
  });
})();
