/* Copy buttons. `data-copy-from`: the recovery-code page's, copies the codes of the list it
 * names, one a line. `data-copy-text`: copies the text of the element it names exactly (a new
 * API token). A static file, as the Content-Security-Policy refuses inline scripts. */
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target;
    if (button instanceof Element && button.hasAttribute("data-copy-text")) {
      var source = document.getElementById(button.getAttribute("data-copy-text"));
      navigator.clipboard.writeText(source.textContent).then(function () {
        button.textContent = button.getAttribute("data-copied");
      });
      return;
    }
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
