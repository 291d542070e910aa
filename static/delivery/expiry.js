// Shows the "valid until" picker only when "Until a chosen time" is selected, and the
// expiry fields only when a token is asked for. Without JavaScript every field stays visible.
(function () {
  "use strict";

  function fieldBox(form, suffix) {
    const input = form.querySelector('[name$="' + suffix + '"]');
    return input ? input.closest(".dl-field") : null;
  }

  function refresh(form) {
    const choice = form.querySelector('select[name$="expires_in"]');
    const sign = form.querySelector('input[type=checkbox][name$="sign"]');
    const signing = !sign || sign.checked;
    ["expires_in", "upp"].forEach(function (suffix) {
      const box = fieldBox(form, suffix);
      if (box) box.hidden = !signing;
    });
    const until = fieldBox(form, "expires_at");
    if (until) until.hidden = !signing || !choice || choice.value !== "custom";
  }

  document.querySelectorAll("form.dl-form").forEach(function (form) {
    if (!form.querySelector('select[name$="expires_in"]')) return;
    form.addEventListener("change", function () { refresh(form); });
    refresh(form);
  });
})();
