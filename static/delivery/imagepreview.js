// Live preview of the image URL builder: after each change (debounced) the form is sent to
// the back-office's preview view, which builds the URL, fetches the processed image from the
// edge and returns it; errors come back as JSON and are listed under the image.
(function () {
  "use strict";

  const form = document.getElementById("dl-image-form");
  if (!form) return;
  const img = document.getElementById("dl-preview-img");
  const info = document.getElementById("dl-preview-info");
  const errors = document.getElementById("dl-preview-errors");
  const urlBox = document.getElementById("dl-image-url");
  const texts = JSON.parse(document.getElementById("dl-preview-texts").textContent);
  const sizeTexts = JSON.parse(document.getElementById("size-texts").textContent);
  let timer = null;
  let sequence = 0;
  let objectUrl = null;
  const TOKEN_FIELDS = ["sign", "expires_in", "expires_at", "upp"];

  function showMode() {
    const checked = form.querySelector('input[name="mode"]:checked');
    const mode = checked ? checked.value : "params";
    form.querySelectorAll(".dl-mode").forEach(function (box) {
      box.hidden = box.dataset.mode !== mode;
    });
  }

  function listErrors(messages) {
    errors.replaceChildren();
    messages.forEach(function (message) {
      const item = document.createElement("li");
      item.textContent = message;
      errors.appendChild(item);
    });
  }

  /* Field errors go beside their fields, replacing what the server rendered there, so that a
   * message is shown once; the preview lists only errors that belong to no field. */
  function markFields(fields) {
    form.querySelectorAll(".dl-field").forEach(function (box) {
      if (TOKEN_FIELDS.includes(box.dataset.field)) return;  // the preview does not check these
      const messages = fields[box.dataset.field] || [];
      box.querySelectorAll(".errorlist").forEach(function (list) { list.remove(); });
      box.classList.toggle("dl-invalid", messages.length > 0);
      if (!messages.length) return;
      // The style of includes/field_errors.html: one sentence a line, announced.
      const list = document.createElement("div");
      list.className = "errorlist";
      list.setAttribute("role", "alert");
      messages.forEach(function (message) {
        const item = document.createElement("p");
        item.textContent = message;
        list.appendChild(item);
      });
      box.appendChild(list);
    });
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (whole, name) {
      return name in values ? String(values[name]) : whole;
    });
  }

  async function load() {
    const mine = ++sequence;
    const params = new URLSearchParams(new FormData(form));
    TOKEN_FIELDS.forEach(function (name) { params.delete(name); });
    if (!params.get("path")) {
      info.textContent = texts.empty;
      img.hidden = true;
      listErrors([]);
      return;
    }
    info.textContent = texts.loading;
    let response;
    try {
      response = await fetch(form.dataset.previewUrl + "?" + params.toString(),
                             {credentials: "same-origin"});
    } catch (error) {
      if (mine === sequence) { info.textContent = texts.failed; listErrors([String(error)]); }
      return;
    }
    if (mine !== sequence) return;  // a newer request is on its way
    if (!response.ok) {
      let payload = {errors: [texts.failed]};
      try { payload = await response.json(); } catch (error) { /* not JSON: keep default */ }
      img.hidden = true;
      info.textContent = texts.failed;
      markFields(payload.fields || {});
      listErrors(payload.errors || [texts.failed]);
      return;
    }
    markFields({});
    const blob = await response.blob();
    if (mine !== sequence) return;
    urlBox.value = response.headers.get("X-Edge-URL") || "";
    if (objectUrl) URL.revokeObjectURL(objectUrl);
    objectUrl = URL.createObjectURL(blob);
    img.onload = function () {
      info.textContent = fill(texts.info, {
        width: img.naturalWidth, height: img.naturalHeight, type: blob.type,
        size: window.formatSize(blob.size, sizeTexts), cache: response.headers.get("X-Edge-Cache") || "-",
      });
      img.dataset.width = img.naturalWidth;
      img.dataset.height = img.naturalHeight;
    };
    img.src = objectUrl;
    img.hidden = false;
    listErrors([]);
  }

  function schedule() {
    showMode();
    clearTimeout(timer);
    timer = setTimeout(load, 400);
  }

  form.addEventListener("input", schedule);
  form.addEventListener("change", schedule);
  showMode();
  if (new URLSearchParams(window.location.search).get("path")) load();
})();
