/* The one size format of the back-office, as storage.texts.size_text writes it on the server:
 * bytes below 1 KiB ("512 bytes"), else one decimal of the largest binary unit ("1.5 KiB").
 * `texts` are the translated patterns of storage.texts.size_texts (byteOne, byteMany, unit). */
(function () {
  "use strict";

  var UNITS = ["KiB", "MiB", "GiB", "TiB"];

  function grouped(whole) {
    return String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  }

  window.formatSize = function (bytes, texts) {
    texts = texts || {};
    if (bytes < 1024) {
      var whole = Math.floor(bytes);
      var pattern = whole === 1 ? (texts.byteOne || "%(count)s byte") : (texts.byteMany || "%(count)s bytes");
      return pattern.replace("%(count)s", grouped(whole));
    }
    var value = bytes;
    var unit = -1;
    while (value >= 1023.95 && unit < UNITS.length - 1) { value /= 1024; unit += 1; }
    return (texts.unit || "%(value)s %(unit)s")
      .replace("%(value)s", value.toFixed(1)).replace("%(unit)s", UNITS[unit]);
  };
})();
