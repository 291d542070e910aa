/* Submits a form as soon as one of its controls marked `data-autosubmit` changes (language
 * switcher, rule-set picker). A static file rather than an inline `onchange`, which the
 * Content-Security-Policy refuses. */
(function () {
  "use strict";
  document.addEventListener("change", function (event) {
    var control = event.target;
    if (control instanceof Element && control.hasAttribute("data-autosubmit") && control.form) {
      control.form.submit();
    }
  });
}());
