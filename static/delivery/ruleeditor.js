// The rule-set editor: syntax errors shown as you type, row ordering, new rows, and the tester.
//
// Each change of a pattern or rule is sent (debounced) to the lint endpoint, which answers with
// edgerules diagnostics located by 1-based line and column (code points). Under the field, a
// copy of its text is shown with each error's characters wrapped in <mark>, followed by the
// messages; the field itself gets aria-invalid. No external libraries.
(function () {
  "use strict";

  const form = document.getElementById("dl-ruleset-form");
  if (!form) return;
  const list = document.getElementById("dl-rules");
  const texts = JSON.parse(document.getElementById("dl-editor-texts").textContent);
  const csrf = form.querySelector('input[name="csrfmiddlewaretoken"]').value;
  const prefix = "rules";
  const timers = new WeakMap();

  async function postJSON(url, payload) {
    const response = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrf},
      body: JSON.stringify(payload),
    });
    let data = {};
    try { data = await response.json(); } catch (error) { data = {error: response.statusText}; }
    return {ok: response.ok, data: data};
  }

  // (line, column) -> index into the array of code points of `text`.
  function offsetOf(chars, line, column) {
    let current = 1;
    let index = 0;
    while (current < line && index < chars.length) {
      if (chars[index] === "\n") current += 1;
      index += 1;
    }
    return Math.min(index + column - 1, chars.length);
  }

  function renderMirror(mirror, text, diagnostics) {
    const chars = Array.from(text);
    const ranges = diagnostics.map(function (d) {
      const start = offsetOf(chars, d.line, d.column);
      let end = offsetOf(chars, d.end_line, d.end_column);
      if (end <= start) end = start + 1;
      return {start: start, end: end, diagnostic: d};
    }).sort(function (a, b) { return a.start - b.start; });
    mirror.replaceChildren();
    let position = 0;
    ranges.forEach(function (range) {
      if (range.start < position) return;  // overlaps an earlier mark: listed below only
      mirror.appendChild(document.createTextNode(chars.slice(position, range.start).join("")));
      const mark = document.createElement("mark");
      mark.className = "dl-mark dl-mark-" + range.diagnostic.severity;
      const marked = chars.slice(range.start, range.end).join("");
      mark.textContent = marked === "" || marked === "\n" ? " " : marked;
      mark.title = range.diagnostic.text;
      mark.dataset.line = range.diagnostic.line;
      mark.dataset.column = range.diagnostic.column;
      mark.dataset.code = range.diagnostic.code;
      mirror.appendChild(mark);
      position = Math.min(range.end, chars.length);
    });
    mirror.appendChild(document.createTextNode(chars.slice(position).join("")));
  }

  function show(row, field, diagnostics) {
    const box = row.querySelector('[data-diagnostics="' + field + '"]');
    const input = row.querySelector("textarea.dl-" + field);
    const messages = box.querySelector(".dl-messages");
    messages.replaceChildren();
    const errors = diagnostics.filter(function (d) { return d.severity === "error"; });
    input.setAttribute("aria-invalid", errors.length ? "true" : "false");
    if (errors.length) {
      input.dataset.errorLine = errors[0].line;
      input.dataset.errorColumn = errors[0].column;
    } else {
      delete input.dataset.errorLine;
      delete input.dataset.errorColumn;
    }
    if (!diagnostics.length) {
      box.hidden = true;
      return;
    }
    renderMirror(box.querySelector(".dl-mirror"), input.value, diagnostics);
    diagnostics.forEach(function (d) {
      const item = document.createElement("li");
      item.className = "dl-message dl-" + d.severity;
      item.dataset.line = d.line;
      item.dataset.column = d.column;
      item.textContent = d.text;
      messages.appendChild(item);
    });
    box.hidden = false;
  }

  async function lintRow(row) {
    const rule = row.querySelector("textarea.dl-rule");
    const pattern = row.querySelector("textarea.dl-pattern");
    if (!rule || rule.disabled && !rule.value) return;
    let result;
    try {
      result = await postJSON(form.dataset.lintUrl, {rule: rule.value, pattern: pattern.value});
    } catch (error) {
      return;  // offline: the server checks again on save
    }
    if (!result.ok) {
      show(row, "rule", [{severity: "error", line: 1, column: 1, end_line: 1, end_column: 1,
                          code: "request", text: texts.failed.replace("%(error)s",
                                                                     result.data.error || "")}]);
      return;
    }
    const found = result.data.diagnostics;
    show(row, "rule", found.filter(function (d) { return d.field !== "pattern"; }));
    show(row, "pattern", found.filter(function (d) { return d.field === "pattern"; }));
    row.classList.toggle("dl-has-errors", found.some(function (d) { return d.severity === "error"; }));
  }

  function scheduleLint(row) {
    clearTimeout(timers.get(row));
    timers.set(row, setTimeout(function () { lintRow(row); }, 250));
  }

  function renumber() {
    let number = 1;
    list.querySelectorAll("[data-rule-row]").forEach(function (row) {
      const position = row.querySelector("input.dl-position");
      if (position) position.value = number;
      number += 1;
    });
  }

  function wire(row) {
    row.querySelectorAll("textarea.dl-rule, textarea.dl-pattern").forEach(function (area) {
      area.addEventListener("input", function () { scheduleLint(row); });
    });
    row.querySelectorAll("button[data-move]").forEach(function (button) {
      button.addEventListener("click", function () {
        if (button.dataset.move === "up" && row.previousElementSibling) {
          list.insertBefore(row, row.previousElementSibling);
        } else if (button.dataset.move === "down" && row.nextElementSibling) {
          list.insertBefore(row.nextElementSibling, row);
        }
        renumber();
      });
    });
    const rule = row.querySelector("textarea.dl-rule");
    if (rule && rule.value) lintRow(row);
  }

  list.querySelectorAll("[data-rule-row]").forEach(wire);

  const addButton = document.getElementById("dl-add-rule");
  if (addButton) {
    addButton.addEventListener("click", function () {
      const total = form.querySelector('input[name="' + prefix + '-TOTAL_FORMS"]');
      const index = Number(total.value);
      const html = document.getElementById("dl-empty-rule").innerHTML
        .replace(/__prefix__/g, String(index));
      const holder = document.createElement("ol");
      holder.innerHTML = html;
      const row = holder.firstElementChild;
      list.appendChild(row);
      total.value = String(index + 1);
      renumber();
      wire(row);
      row.querySelector("textarea.dl-pattern").focus();
    });
  }

  // --- tester ---------------------------------------------------------------------------------

  function currentRules() {
    const rules = [];
    list.querySelectorAll("[data-rule-row]").forEach(function (row) {
      const remove = row.querySelector('input[type=checkbox][name$="-DELETE"]');
      if (remove && remove.checked) return;
      const rule = row.querySelector("textarea.dl-rule");
      const pattern = row.querySelector("textarea.dl-pattern");
      if (!rule.value && !pattern.value) return;
      rules.push({
        pattern: pattern.value,
        rule: rule.value,
        "break": row.querySelector('input[name$="-breaks"]').checked,
        state: row.querySelector('select[name$="-state"]').value,
        test_addresses: row.querySelector('textarea[name$="-test_addresses"]').value
          .split(/\s+/).filter(function (line) { return line; }),
      });
    });
    return rules;
  }

  const runButton = document.getElementById("dl-run-test");
  const outcome = document.getElementById("dl-test-outcome");
  const testErrors = document.getElementById("dl-test-errors");

  function listTestErrors(messages) {
    testErrors.replaceChildren();
    messages.forEach(function (message) {
      const item = document.createElement("li");
      item.textContent = message;
      testErrors.appendChild(item);
    });
  }

  runButton.addEventListener("click", async function () {
    outcome.textContent = texts.running;
    listTestErrors([]);
    const request = {
      method: document.getElementById("dl-test-method").value,
      url: document.getElementById("dl-test-url").value,
      headers: document.getElementById("dl-test-headers").value,
      cookies: document.getElementById("dl-test-cookies").value,
      body: document.getElementById("dl-test-body").value,
      preview: document.getElementById("dl-test-preview").checked,
      ip: document.getElementById("dl-test-ip").value,
    };
    let result;
    try {
      result = await postJSON(form.dataset.testUrl, {rules: currentRules(), request: request});
    } catch (error) {
      outcome.textContent = "";
      listTestErrors([texts.test_failed.replace("%(error)s", String(error))]);
      return;
    }
    if (!result.ok) {
      outcome.textContent = "";
      if (result.data.input_errors) {
        listTestErrors(result.data.input_errors.map(function (p) { return p.text; }));
      } else {
        listTestErrors([texts.test_failed.replace("%(error)s", result.data.error || "")]);
      }
      return;
    }
    outcome.innerHTML = result.data.html;  // rendered by our own template, escaped there
  });
})();
