/* Keeps what a person typed in a form when the form cannot be sent: the form expired (the
 * CSRF failure page) or the session ended while they were editing (the sign-in page).
 *
 * The values live in this tab's sessionStorage only, never on the server: every POST form
 * writes its visible, non-secret fields there when it is submitted; a page that knows the
 * submission failed (the "form expired" page, the sign-in page after a session ended) or a
 * link back to the form (a confirmation's "Go back") marks the form's page to be restored; when that page opens again, the fields are filled in and
 * a notice says so. A page opened any other way is left as the server drew it, so a form
 * that was sent successfully is never filled in again.
 *
 * Never kept: passwords, hidden and file fields, and any field whose name says it is a
 * secret (password, token, secret, key, code). */
(function () {
  "use strict";
  var PREFIX = "formkeep:";
  var RESTORE = "formkeep-restore";
  var SECRET = /pass|token|secret|key|code|otp|csrf/i;
  var SKIPPED_TYPES = ["password", "hidden", "file", "submit", "button", "reset", "image"];

  function storage() {
    try {
      return window.sessionStorage;
    } catch (error) {
      return null; // storage refused (private mode): nothing is kept
    }
  }

  function keptField(field) {
    return field.name && !SECRET.test(field.name) && SKIPPED_TYPES.indexOf(field.type) < 0 &&
      !field.disabled;
  }

  function valuesOf(form) {
    var values = {};
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!keptField(field)) {
        return;
      }
      if (field.type === "checkbox" || field.type === "radio") {
        if (field.checked) {
          (values[field.name] = values[field.name] || []).push(field.value);
        } else if (!(field.name in values)) {
          values[field.name] = [];
        }
      } else if (field.type === "select-multiple") {
        values[field.name] = Array.prototype.filter.call(field.options, function (option) {
          return option.selected;
        }).map(function (option) { return option.value; });
      } else {
        values[field.name] = field.value;
      }
    });
    return values;
  }

  function fill(form, values) {
    var filled = 0;
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!keptField(field) || !(field.name in values)) {
        return;
      }
      var value = values[field.name];
      var list = Array.isArray(value) ? value : [value];
      if (field.type === "checkbox" || field.type === "radio") {
        field.checked = list.indexOf(field.value) >= 0;
      } else if (field.type === "select-multiple") {
        Array.prototype.forEach.call(field.options, function (option) {
          option.selected = list.indexOf(option.value) >= 0;
        });
      } else {
        field.value = list[0];
        field.dispatchEvent(new Event("input", { bubbles: true }));
      }
      filled += 1;
    });
    return filled;
  }

  function rememberOnSubmit(event) {
    var form = event.target;
    var store = storage();
    if (!store || !(form instanceof HTMLFormElement) || form.method.toLowerCase() !== "post" ||
        form.hasAttribute("data-keep-off")) {
      return;
    }
    var values = valuesOf(form);
    if (Object.keys(values).length === 0) {
      return;
    }
    store.setItem(PREFIX + window.location.pathname, JSON.stringify({
      action: form.getAttribute("action") || "", values: values
    }));
  }

  /* The "form expired" page and the sign-in page name the page to restore (and may carry
   * the values the server received, without secrets). */
  function markFromPage() {
    var store = storage();
    var data = document.getElementById("formkeep-data");
    if (!store || !data) {
      return;
    }
    var payload = JSON.parse(data.textContent);
    if (!payload.path) {
      return;
    }
    var key = PREFIX + payload.path;
    if (payload.values && Object.keys(payload.values).length && !store.getItem(key)) {
      store.setItem(key, JSON.stringify({ action: "", values: payload.values }));
    }
    if (store.getItem(key)) {
      store.setItem(RESTORE, payload.path);
    }
  }

  function restore() {
    var store = storage();
    if (!store || store.getItem(RESTORE) !== window.location.pathname) {
      return;
    }
    var key = PREFIX + window.location.pathname;
    var kept = JSON.parse(store.getItem(key) || "null");
    store.removeItem(RESTORE);
    store.removeItem(key);
    if (!kept) {
      return;
    }
    var forms = Array.prototype.filter.call(document.forms, function (form) {
      return form.method.toLowerCase() === "post" && !form.hasAttribute("data-keep-off");
    });
    var restored = 0;
    forms.forEach(function (form) {
      var action = form.getAttribute("action") || "";
      if (!kept.action || action === kept.action) {
        restored += fill(form, kept.values);
      }
    });
    var notice = document.getElementById("formkeep-notice");
    if (restored && notice) {
      notice.hidden = false;
    }
  }

  /* A link back to the form a question came from ("Go back" of a confirmation page). */
  function restoreOnClick(event) {
    var store = storage();
    var link = event.target instanceof Element ? event.target.closest("a[data-formkeep-restore]")
      : null;
    if (store && link && store.getItem(PREFIX + link.pathname)) {
      store.setItem(RESTORE, link.pathname);
    }
  }

  document.addEventListener("submit", rememberOnSubmit, true);
  document.addEventListener("click", restoreOnClick);
  if (document.getElementById("formkeep-data")) {
    markFromPage(); // this page says the form failed (it may share the form's address)
  } else {
    restore();
  }
}());
