// Snapshot page: keep the suggested image name in step with the time point and format,
// until the person edits the name themselves (then it is theirs and is left alone).
(function () {
  "use strict";
  var point = document.getElementById("id_point");
  var format = document.getElementById("id_image_format");
  var saveAs = document.getElementById("id_save_as");
  if (!point || !format || !saveAs) { return; }
  var pattern = /_\d{2}-\d{2}-\d{2}\.(jpg|jpeg|png|webp)$/i;
  var lastSuggested = pattern.test(saveAs.value) ? saveAs.value : null;

  function suggest() {
    if (lastSuggested === null || saveAs.value !== lastSuggested) { return; }
    var match = /^\s*(\d{1,2}):(\d{2}):(\d{2})\s*$/.exec(point.value);
    if (!match) { return; }
    var stamp = ("0" + match[1]).slice(-2) + "-" + match[2] + "-" + match[3];
    var suffix = format.value || saveAs.value.match(pattern)[1];
    saveAs.value = saveAs.value.replace(pattern, "_" + stamp + "." + suffix);
    lastSuggested = saveAs.value;
  }
  point.addEventListener("input", suggest);
  format.addEventListener("change", suggest);
  saveAs.addEventListener("input", function () { lastSuggested = null; });
})();
