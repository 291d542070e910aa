// Merchant API docs: a Copy button on every example. The examples stay plain selectable <pre>
// blocks, so without JavaScript (or without clipboard access) they are copied by hand; when
// the clipboard refuses, the example is selected and the reader told to press Ctrl+C.
(function () {
  "use strict";
  var texts = document.getElementById("api-intro");
  if (!texts) { return; }

  function selectAll(node) {
    var range = document.createRange();
    range.selectNodeContents(node);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function addButton(pre) {
    var code = pre.querySelector("code") || pre;
    var button = document.createElement("button");
    button.type = "button";
    button.className = "secondary copy-example";
    button.textContent = texts.dataset.copy;
    button.addEventListener("click", function () {
      var done = function () {
        button.textContent = texts.dataset.copied;
        setTimeout(function () { button.textContent = texts.dataset.copy; }, 2000);
      };
      var fallback = function () {
        selectAll(code);
        button.textContent = texts.dataset.select;
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(code.textContent).then(done, fallback);
      } else {
        fallback();
      }
    });
    var wrapper = document.createElement("div");
    wrapper.className = "example";
    pre.parentNode.insertBefore(wrapper, pre);
    wrapper.appendChild(button);
    wrapper.appendChild(pre);
  }

  Array.prototype.forEach.call(document.querySelectorAll(".topup-docs pre"), addButton);
}());
