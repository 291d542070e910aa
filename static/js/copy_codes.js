/* The recovery-code page's copy button: copies the codes of the list it names, one a line.
 * A static file, as the Content-Security-Policy refuses inline scripts. */
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target;
    if (!(button instanceof Element) || !button.hasAttribute("data-copy-from")) {
      return;
    }
    var list = document.getElementById(button.getAttribute("data-copy-from"));
    var lines = Array.prototype.map.call(list.querySelectorAll("code"), function (code) {
      return code.textContent;
    });
    navigator.clipboard.writeText(lines.join("\n") + "\n").then(function () {
      button.textContent = button.getAttribute("data-copied");
    });
  });
}());
