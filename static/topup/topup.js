// Single top-up form: once the number is typed, show its carrier and list only that carrier's
// products. The server checks everything again; without JavaScript the form still works.
(function () {
  "use strict";
  var form = document.getElementById("topup-form");
  if (!form) { return; }
  var mobile = form.querySelector("[name=mobile]");
  var product = form.querySelector("[name=product]");
  var other = form.querySelector("[name=allow_other_carrier]");
  var hint = document.getElementById("carrier-hint");
  var carriers = JSON.parse(document.getElementById("product-carriers").textContent);
  var texts = JSON.parse(document.getElementById("carrier-texts").textContent);
  var detected = "";
  var pending = null;

  function filterProducts() {
    var allowAll = !detected || (other && other.checked);
    Array.prototype.forEach.call(product.options, function (option) {
      if (!option.value) { return; }
      var visible = allowAll || carriers[option.value] === detected;
      option.hidden = !visible;
      option.disabled = !visible;
      if (!visible && option.selected) { product.value = ""; }
    });
  }

  function lookUp() {
    var value = mobile.value.trim();
    if (value.replace(/\D/g, "").length < 11) {
      detected = ""; hint.textContent = ""; filterProducts(); return;
    }
    var url = form.dataset.lookupUrl + "?mobile=" + encodeURIComponent(value);
    fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (response) { return response.json(); })
      .then(function (data) {
        if (data.error) {
          detected = ""; hint.textContent = data.error;
        } else {
          detected = data.carrier;
          hint.textContent = detected
            ? texts.detected.replace("%(carrier)s", texts[detected] || detected)
            : texts.undetected;
        }
        filterProducts();
      })
      .catch(function () { detected = ""; filterProducts(); });
  }

  mobile.addEventListener("input", function () {
    clearTimeout(pending);
    pending = setTimeout(lookUp, 250);
  });
  if (other) { other.addEventListener("change", filterProducts); }
  if (mobile.value) { lookUp(); }
}());
