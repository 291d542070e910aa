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
    function check() {
      var mine = ++sequence;
      fetch(url, {
        method: "POST",
        body: new FormData(form),
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
          paragraphs(box, byField[box.dataset.for] || []);
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
    form.addEventListener("input", schedule);
    form.addEventListener("change", schedule);
    document.querySelectorAll(".sample").forEach(function (input) {
      input.addEventListener("input", schedule);
    });
    check();
  }

  function setupProgress(card) {
    var url = card.dataset.progressUrl;
    var bar = document.getElementById("campaign-progress");
    var percent = document.getElementById("campaign-percent");
    var state = document.getElementById("campaign-state");
    var halt = document.getElementById("campaign-halt");
    function poll() {
      fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (data) {
          if (!data) { setTimeout(poll, 3000); return; }
          bar.value = data.percent;
          bar.textContent = data.percent + "%";
          percent.textContent = data.percent + "%";
          state.textContent = data.state_label;
          state.className = "badge state-" + data.state;
          ["accepted", "rejected", "cancelled", "total"].forEach(function (name) {
            var cell = card.querySelector('[data-count="' + name + '"]');
            if (cell) { cell.textContent = Number(data[name]).toLocaleString(); }
          });
          if (data.halt) { halt.hidden = false; }
          if (data.running) {
            setTimeout(poll, 1000);
          } else {
            // Finished, halted or cancelled: reload once to show the results and actions.
            window.location.reload();
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

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form[data-submit-once]").forEach(setupSubmitOnce);
    var form = document.getElementById("template-form");
    if (form) { setupTemplateCheck(form); }
    var card = document.getElementById("campaign-progress-card");
    if (card && card.dataset.running) { setupProgress(card); }
  });
})();
