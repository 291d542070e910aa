/* The storage file browser: drag-and-drop uploads sent straight to the storage service with
 * signed requests (direct.js), or, with STORAGE_BROWSER_UPLOAD_ROUTE=through-backoffice, in
 * 1 MiB parts, each forwarded to the
 * provider by whichever web node receives it (so nothing waits on one node's disk), with two
 * progress bars per file (the part on the wire, measured by XMLHttpRequest, and the whole file
 * as the provider confirmed it), Resume/Discard after a failure, and row selection.
 * Replacing files and discarding an upload are asked first, with the confirmation page's words
 * (sent by the server), in a panel shown in place when leaving would stop files being sent.
 * Plain JavaScript, no libraries. Texts come translated from the page (#storage-config). */
(function () {
  "use strict";

  var configNode = document.getElementById("storage-config");
  var config = configNode ? JSON.parse(configNode.textContent) : {};
  var T = config.texts || {};
  var POLL_MS = 1000;
  var PARALLEL_SENDS = 2;
  var RETRY_MS = 2000;
  // A part whose request failed (the connection dropped, a web node went away, the provider
  // was busy) is sent again every RETRY_MS, at the part the server says it expects, the item
  // saying "connection lost, retrying (attempt n)" with a Resume button that tries at once;
  // after PAUSE_AFTER_MS of failures in a row it stops and says "paused" with the reason.
  // A part request without any answer for PART_TIMEOUT_MS counts as failed: a stalled
  // connection otherwise shows the same percentage for ever. Both from the page's config
  // (STORAGE_UPLOAD_PAUSE_S, STORAGE_UPLOAD_PART_TIMEOUT_S).
  var PAUSE_AFTER_MS = (config.pauseAfterS || 120) * 1000;
  var PART_TIMEOUT_MS = (config.partTimeoutS || 60) * 1000;
  var ACTIVE = { queued: true, uploading: true };

  function text(key, fallback) { return T[key] || fallback; }

  function csrfToken() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  // The shared format of static/js/sizes.js, with the page's translated patterns.
  function formatBytes(bytes) { return window.formatSize(bytes, config.sizeTexts); }

  function element(tag, className, content) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (content !== undefined) { node.textContent = content; }
    return node;
  }

  /* --- selection and small conveniences ---------------------------------------------- */

  /* Deletes are confirmed on the server's confirmation page (one pattern for every
   * destructive action), so nothing is asked here. "Select all" ticks the rows of the page;
   * delegated, because the listing is replaced after uploads. */
  document.addEventListener("change", function (event) {
    var box = event.target;
    if (box.id !== "select-all") { return; }
    Array.prototype.forEach.call(document.querySelectorAll("input[data-select]"),
      function (row) { row.checked = box.checked; });
  });

  Array.prototype.forEach.call(document.querySelectorAll("[data-autosubmit]"), function (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  });

  /* --- a question asked in place ------------------------------------------------------- */

  /* The confirmation page (templates/confirm.html) as a panel in this page, for the moments
   * when going to that page would stop the files this page is sending. `question` is what the
   * server sends (backoffice.confirm.confirmation_json): the same words, the same look. */
  var openQuestion = null;

  function askInPage(question, place, onConfirm, onBack) {
    if (openQuestion) { openQuestion(); }  // one question at a time: the older one is declined
    var panel = element("section", "card confirm-card inpage-confirm");
    panel.id = "inpage-confirm";
    panel.setAttribute("role", "alertdialog");
    panel.setAttribute("aria-labelledby", "inpage-confirm-question");
    var heading = element("h2", "", question.question);
    heading.id = "inpage-confirm-question";
    panel.appendChild(heading);
    (question.consequences || []).forEach(function (sentence) {
      panel.appendChild(element("p", "", sentence));
    });
    if (question.items && question.items.length) {
      var items = element("ul", "confirm-items");
      items.id = "inpage-confirm-items";
      question.items.forEach(function (name) { items.appendChild(element("li", "", name)); });
      panel.appendChild(items);
      if (question.more) { panel.appendChild(element("p", "muted", question.more)); }
    }
    var actions = element("div", "confirm-actions");
    var act = element("button", "danger", question.button);
    act.type = "button";
    act.id = "inpage-confirm-action";
    var back = element("button", "back", question.back);
    back.type = "button";
    back.id = "inpage-confirm-back";
    actions.appendChild(act);
    actions.appendChild(back);
    panel.appendChild(actions);
    function close() { panel.remove(); openQuestion = null; }
    function decline() { close(); if (onBack) { onBack(); } }
    act.addEventListener("click", function () { close(); onConfirm(); });
    back.addEventListener("click", decline);
    openQuestion = decline;
    place(panel);
    back.focus();  // Enter on an unread question does nothing
  }

  /* --- one upload in the list ---------------------------------------------------------- */

  function postJson(url, fields) {
    var body = new FormData();
    Object.keys(fields || {}).forEach(function (name) { body.append(name, fields[name]); });
    return fetch(url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "X-CSRFToken": csrfToken(), "Accept": "application/json" }
    }).then(function (response) { return response.json(); });
  }

  var dropped = [];  // the uploads whose file this page holds (dropped or chosen here)

  /* Whether leaving the page would stop files it is sending or could still send. */
  function pageBusy() {
    return inFlight > 0 || waiting.length > 0 ||
      dropped.some(function (item) { return Boolean(item.sender); });
  }

  function UploadItem(node) {
    this.node = node;
    this.status = null;
    this.timer = null;
    var self = this;
    var resume = node.querySelector("[data-resume]");
    var cancel = node.querySelector("[data-cancel]");
    if (resume) { resume.addEventListener("click", function () { self.resume(); }); }
    if (cancel) {
      cancel.addEventListener("click", function (event) {
        // A button in a form (drawn by the server) goes to the confirmation page, unless that
        // would stop files this page is sending: then the same question is asked in place.
        if (cancel.form && !pageBusy()) { return; }
        event.preventDefault();
        self.cancel();
      });
    }
  }

  UploadItem.create = function (file, target) {
    var li = element("li", "upload-item state-sending");
    li.dataset.state = "sending";
    var name = element("div", "upload-name");
    name.appendChild(element("strong", "", target || file.name));
    name.appendChild(document.createTextNode(" "));
    name.appendChild(element("span", "muted", formatBytes(file.size)));
    li.appendChild(name);
    li.appendChild(UploadItem.bar("part", text("thisPart", "this part")));
    li.appendChild(UploadItem.bar("overall", text("overall", "whole file")));
    var state = element("div", "upload-state");
    var label = element("span", "state", text("sending", "sending"));
    label.setAttribute("data-state-label", "");
    var error = element("span", "upload-error");
    error.setAttribute("data-error", "");
    var resume = element("button", "secondary", text("resume", "Resume"));
    resume.type = "button";
    resume.hidden = true;
    resume.setAttribute("data-resume", "");
    var cancel = element("button", "danger-link", text("discard", "Discard"));
    cancel.type = "button";
    cancel.hidden = true;
    cancel.setAttribute("data-cancel", "");
    var retry = element("button", "secondary", text("retry", "Send again"));
    retry.type = "button";
    retry.hidden = true;
    retry.setAttribute("data-retry", "");
    [label, document.createTextNode(" "), error, resume, cancel, retry].forEach(function (part) {
      state.appendChild(part);
    });
    li.appendChild(state);
    var item = new UploadItem(li);
    dropped.push(item);
    return item;
  };

  UploadItem.bar = function (leg, caption) {
    var row = element("div", "bar-row");
    row.dataset.leg = leg;
    row.appendChild(element("span", "bar-label", caption));
    var progress = element("progress");
    progress.max = 100;
    progress.value = 0;
    row.appendChild(progress);
    row.appendChild(element("span", "bar-text", "0%"));
    return row;
  };

  UploadItem.prototype.setLeg = function (leg, fraction, caption) {
    var row = this.node.querySelector('[data-leg="' + leg + '"]');
    if (!row) { return; }
    var percent = Math.max(0, Math.min(100, Math.floor(fraction * 100)));
    row.querySelector("progress").value = percent;
    row.querySelector(".bar-text").textContent = caption || (percent + "%");
  };

  UploadItem.prototype.setState = function (state, label, error) {
    this.node.dataset.state = state;
    this.node.className = "upload-item state-" + state;
    this.node.querySelector("[data-state-label]").textContent = label;
    this.node.querySelector("[data-error]").textContent = error || "";
  };

  UploadItem.prototype.apply = function (status) {
    this.status = status;
    this.node.dataset.uploadId = status.id;
    this.node.dataset.statusUrl = status.status_url;
    this.setOverall(status.bytes_sent, status.size);
    var waiting = status.direct && status.state === "uploading" && !this.sender;
    this.setState(status.state, status.state_label,
      waiting ? text("dropAgain", "Drop the same file again to continue.") : status.error);
    var resume = this.node.querySelector("[data-resume]");
    var cancel = this.node.querySelector("[data-cancel]");
    if (resume) { resume.hidden = !status.can_resume; }
    if (cancel) {
      cancel.hidden = !(status.state === "failed" || status.state === "queued" ||
        (status.direct && status.state === "uploading"));
    }
    if (status.state === "done") { this.setLeg("part", 1); Listing.refreshSoon(); }
    if (status.state === "done" && status.result && status.result.colours) {
      this.showColours(status.result.colours);
    }
  };

  // Theme colours of an upload that asked for them (at most 16 shown). The swatches are
  // painted from data-colour here: the Content-Security-Policy forbids style attributes.
  var SHOWN_COLOURS = 16;
  function paintSwatches(root) {
    Array.prototype.forEach.call(root.querySelectorAll("[data-colour]"), function (swatch) {
      swatch.style.backgroundColor = swatch.dataset.colour;
    });
  }

  UploadItem.prototype.showColours = function (colours) {
    if (this.node.querySelector("[data-theme-colours]")) { return; }
    var box = element("div", "theme-colours");
    box.setAttribute("data-theme-colours", "");
    box.appendChild(element("span", "muted", text("themeColours", "Theme colours:")));
    colours.slice(0, SHOWN_COLOURS).forEach(function (colour) {
      var swatch = element("span", "swatch");
      swatch.setAttribute("data-colour", colour.css);
      swatch.title = String(colour.count);
      box.appendChild(document.createTextNode(" "));
      box.appendChild(swatch);
      box.appendChild(element("code", "", colour.value));
    });
    this.node.appendChild(box);
    paintSwatches(box);
  };

  UploadItem.prototype.setOverall = function (sent, size) {
    var percent = size ? Math.floor(sent * 100 / size) : 100;
    this.setLeg("overall", size ? sent / size : 1,
      percent + "% · " + formatBytes(sent) + " / " + formatBytes(size));
  };

  UploadItem.prototype.poll = function () {
    var self = this;
    var url = this.node.dataset.statusUrl;
    if (!url) { return; }
    window.clearTimeout(this.timer);
    fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (response) { return response.json(); })
      .then(function (status) {
        self.apply(status);
        if (ACTIVE[status.state]) { self.timer = window.setTimeout(function () { self.poll(); }, POLL_MS); }
      })
      .catch(function () { self.timer = window.setTimeout(function () { self.poll(); }, POLL_MS * 3); });
  };

  UploadItem.prototype.resume = function () {
    var self = this;
    var url = this.status ? this.status.resume_url : this.node.dataset.resumeUrl;
    postJson(url).then(function (status) {
      self.apply(status);
      if (self.sender && self.sender.resumeWith) {
        self.sender.resumeWith(status);  // a direct upload: this page still holds the file
      } else if (status.direct && self.sender) { self.sender(status.next_part); } else { self.poll(); }
    });
  };

  /* Without `confirmed` the server answers the question (or the status, when the upload can
   * no longer be discarded); the answer to the question posts again with confirmed=1. */
  UploadItem.prototype.cancel = function () {
    var self = this;
    var url = this.status ? this.status.cancel_url : this.node.dataset.cancelUrl;
    postJson(url).then(function (answer) {
      if (!answer.confirmation) { self.apply(answer); return; }
      askInPage(answer.confirmation, function (panel) { self.node.appendChild(panel); },
        function () {
          postJson(url, { confirmed: "1" }).then(function (status) { self.apply(status); });
        });
    });
  };

  /* A part failed and is tried again: the attempt's number, and Resume to try at once. */
  UploadItem.prototype.retrying = function (attempt, reason, now) {
    this.setState("retrying",
      text("retrying", "connection lost, retrying (attempt %s)").replace("%s", attempt), reason);
    this.offerResume(now);
  };

  /* Failures went on too long: stopped, with the reason, until Resume. */
  UploadItem.prototype.paused = function (reason, resume) {
    this.setState("paused", text("paused", "paused"), reason);
    this.offerResume(resume);
  };

  UploadItem.prototype.offerResume = function (action) {
    var button = this.node.querySelector("[data-retry]");
    if (!button) { return; }
    button.textContent = text("resume", "Resume");
    button.hidden = false;
    button.onclick = function () { button.hidden = true; action(); };
  };

  UploadItem.prototype.refused = function (message, retry) {
    this.setState("failed", text("failed", "failed"), message);
    var button = this.node.querySelector("[data-retry]");
    if (button && retry) {
      button.textContent = text("retry", "Send again");
      button.hidden = false;
      button.onclick = function () { button.hidden = true; retry(); };
    }
  };

  /* --- the folder listing, refreshed when files arrive ---------------------------------- */

  var Listing = {
    timer: null,
    refreshSoon: function () {
      if (!config.listingUrl) { return; }
      window.clearTimeout(Listing.timer);
      Listing.timer = window.setTimeout(Listing.refresh, 300);
    },
    refresh: function () {
      fetch(config.listingUrl, { credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (html) {
          var target = document.getElementById("listing");
          if (html !== null && target) { target.innerHTML = html; }
        });
    }
  };

  /* --- sending files ------------------------------------------------------------------- */

  var optionsForm = document.getElementById("upload-options");
  // The options are read by the upload code; the form itself is never sent (Enter in a field
  // would otherwise reload the page). Here rather than an inline onsubmit, which CSP refuses.
  if (optionsForm) {
    optionsForm.addEventListener("submit", function (event) { event.preventDefault(); });
  }
  var list = document.getElementById("upload-list");
  var waiting = [];
  var inFlight = 0;

  function showOptionErrors(errors) {
    Array.prototype.forEach.call(document.querySelectorAll("[data-errors-for]"), function (node) {
      node.innerHTML = "";
    });
    var any = false;
    Object.keys(errors || {}).forEach(function (field) {
      var node = document.querySelector('[data-errors-for="' + field + '"]') ||
        document.querySelector('[data-errors-for="__all__"]');
      (errors[field] || []).forEach(function (message) {
        node.appendChild(element("li", "", message));
        any = true;
      });
    });
    if (any) { document.getElementById("upload-options-box").open = true; }
  }

  /* What stopped a batch, at the drop zone where the file was dropped: the options box may be
   * closed or scrolled away, and a dropped file must never fail without a word. */
  function showDropProblem(message, details) {
    var box = document.getElementById("drop-zone-errors");
    if (!box) { return; }
    box.querySelector("[data-drop-message]").textContent = message || "";
    var listNode = box.querySelector("[data-drop-list]");
    listNode.innerHTML = "";
    (details || []).forEach(function (detail) { listNode.appendChild(element("li", "", detail)); });
    box.hidden = !message;
  }

  function sendNext() {
    while (inFlight < PARALLEL_SENDS && waiting.length) {
      var job = waiting.shift();
      inFlight += 1;
      send(job.file, job.item);
    }
  }

  function errorsText(answer, status) {
    var messages = [];
    if (answer && answer.errors) {
      Object.keys(answer.errors).forEach(function (field) {
        messages = messages.concat(answer.errors[field]);
      });
    }
    if (answer && answer.error) { messages.push(answer.error); }
    return text("refused", "Refused:") + " " + (messages.join(" ") || status);
  }

  /* Open the upload (or take up an unfinished one of the same file), then send its parts. */
  function send(file, item) {
    var data = new FormData(optionsForm);
    data.append("name", file.name);
    data.append("size", String(file.size));
    data.append("content_type", file.type || "");
    function finished() { inFlight -= 1; sendNext(); }
    function again() { item.setState("sending", text("sending", "sending")); waiting.push({ file: file, item: item }); sendNext(); }
    fetch(config.uploadUrl, {
      method: "POST", body: data, credentials: "same-origin",
      headers: { "X-CSRFToken": csrfToken(), "Accept": "application/json" }
    })
      .then(function (response) {
        return response.json().then(function (answer) { return { code: response.status, answer: answer }; });
      })
      .then(function (reply) {
        if (reply.code !== 201) { item.refused(errorsText(reply.answer, reply.code), again); finished(); return; }
        item.apply(reply.answer.upload);
        if (reply.answer.upload.route === "direct") {
          // Straight to the storage service with signed requests (direct.js); the initiate's
          // signature, when the upload is new, came with the answer.
          window.StorageDirect.send(file, item, reply.answer.upload, finished, directEnv,
            reply.answer.initiate || null);
          return;
        }
        sendParts(file, item, reply.answer.upload, finished);
      })
      .catch(function () {
        item.refused(text("networkError", "The connection to the back-office was lost."), again);
        finished();
      });
  }

  var directEnv = {
    csrfToken: csrfToken, text: text, formatBytes: formatBytes, errorsText: errorsText,
    pauseAfterMs: PAUSE_AFTER_MS, partTimeoutMs: PART_TIMEOUT_MS, retryMs: RETRY_MS
  };

  function sendParts(file, item, status, finished) {
    var partSize = status.part_size;
    var released = false;
    /* The slot of the parallel sends is given back once; after a failure the item keeps its
     * sender, so that Resume goes on with the file this page still holds. */
    function stop(keepSender) {
      if (!keepSender) { item.sender = null; }
      if (!released) { released = true; finished(); }
    }
    var attempt = 0;
    var failingSince = null;
    var timer = null;
    function later(partId, reason) {
      attempt += 1;
      if (failingSince === null) { failingSince = Date.now(); }
      window.clearTimeout(timer);
      if (Date.now() - failingSince >= PAUSE_AFTER_MS) {
        item.paused(reason, function () { attempt = 0; failingSince = null; resync(partId); });
        stop(true);
        return;
      }
      item.retrying(attempt, reason, function () { window.clearTimeout(timer); resync(partId); });
      timer = window.setTimeout(function () { resync(partId); }, RETRY_MS);
    }
    function lost() { return text("noAnswer", "The back-office did not answer."); }
    function recovered() {
      attempt = 0;
      failingSince = null;
      var button = item.node.querySelector("[data-retry]");
      if (button) { button.hidden = true; }
    }
    /* After a lost answer ask where the upload stands: the part may have arrived. */
    function resync(partId) {
      fetch(status.status_url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
        .then(function (response) { return response.json(); })
        .then(function (current) {
          item.apply(current);
          if (current.state === "uploading") { sendPart(current.next_part); } else { stop(); }
        })
        .catch(function () { later(partId, lost()); });
    }
    function sendPart(partId) {
      item.sender = sendPart;
      if (partId < 0) { resync(partId); return; }
      var start = status.resumable ? partId * partSize : 0;
      var end = status.resumable ? Math.min(start + partSize, file.size) : file.size;
      var confirmed = start;
      var xhr = new XMLHttpRequest();
      xhr.open("POST", status.part_url + partId + "/");
      xhr.timeout = PART_TIMEOUT_MS;
      xhr.setRequestHeader("X-CSRFToken", csrfToken());
      xhr.setRequestHeader("Accept", "application/json");
      xhr.setRequestHeader("Content-Type", "application/octet-stream");
      xhr.upload.addEventListener("progress", function (event) {
        if (!event.lengthComputable) { return; }
        item.setLeg("part", event.total ? event.loaded / event.total : 1,
          (status.resumable ? "#" + partId + " · " : "") + formatBytes(event.loaded));
        item.setOverall(confirmed + event.loaded, file.size);
      });
      xhr.addEventListener("load", function () {
        var answer = null;
        try { answer = JSON.parse(xhr.responseText); } catch (ignored) { answer = null; }
        if (!answer) { later(partId, lost()); return; }  // a proxy's error page: a node went away
        if (answer.upload) { item.apply(answer.upload); }
        if (xhr.status === 200) {
          recovered();
          if (answer.upload.state === "done") { stop(); return; }
          sendPart(answer.next_part);
        } else if (xhr.status === 409 && answer.expected_part !== null && answer.expected_part !== undefined) {
          sendPart(answer.expected_part);  // another request or tab moved the upload on
        } else if (xhr.status === 503) {
          later(partId, answer.error || text("busy", "The storage service is busy."));
        } else {
          if (xhr.status !== 502) { item.refused(errorsText(answer, xhr.status)); }
          stop(xhr.status === 502);  // the provider refused: Resume sends the same part again
        }
      });
      xhr.addEventListener("error", function () { later(partId, lost()); });
      xhr.addEventListener("timeout", function () {
        later(partId, text("timedOut", "No answer within %s seconds.")
          .replace("%s", String(Math.round(PART_TIMEOUT_MS / 1000))));
      });
      xhr.send(file.slice(start, end));
    }
    if (status.state !== "uploading") { stop(); return; }
    sendPart(status.next_part);
  }

  function startBatch(files) {
    showDropProblem("");
    if (!files.length) {
      showDropProblem(text("nothingDropped", "Nothing to upload: drop files."));
      return;
    }
    var data = new FormData(optionsForm);
    files.forEach(function (file) {
      data.append("name", file.name);
      data.append("size", String(file.size));
    });
    fetch(config.checkUrl, {
      method: "POST", body: data, credentials: "same-origin",
      headers: { "X-CSRFToken": csrfToken(), "Accept": "application/json" }
    })
      .then(function (response) { return response.json(); })
      .then(function (answer) {
        showOptionErrors(answer.errors);
        if (answer.errors) {
          showDropProblem(text("badOptions", "Nothing was uploaded: correct the upload options."),
            answer.summary || []);
          return;
        }
        if (!answer.files) { throw new Error(answer.error || "no files in the answer"); }
        if (answer.confirmation) {
          // Files of these names are stored already: nothing is sent until that is confirmed.
          askInPage(answer.confirmation, function (panel) {
            dropZone.parentNode.insertBefore(panel, dropZone.nextSibling);
          }, function () { enqueueBatch(files, answer.files); }, function () {
            showDropProblem(text("notReplaced", "Nothing was sent: the existing files were kept."));
          });
          return;
        }
        enqueueBatch(files, answer.files);
      })
      .catch(function () {
        showDropProblem(text("checkFailed", "The files could not be checked; nothing was sent."));
      });
  }

  /* The checked files of a batch go into the list and are sent, two at a time. */
  function enqueueBatch(files, infos) {
    infos.forEach(function (info, index) {
      var item = UploadItem.create(files[index], info.path);
      list.insertBefore(item.node, list.firstChild);
      if (info.error) {
        item.refused(info.error);
        return;
      }
      item.node.querySelector(".upload-name .muted").textContent +=
        " · " + (info.resumable ? text("inParts", "in parts of %s").replace("%s", formatBytes(info.part_size))
          : text("onePut", "in one request"));
      item.setState("sending", text("sending", "sending"));
      waiting.push({ file: files[index], item: item });
    });
    sendNext();
  }

  /* Dropped folders arrive as files that cannot be read; they are named, not sent. */
  function droppedFiles(transfer) {
    if (!transfer) { return { files: [], folders: [] }; }
    var files = [];
    var folders = [];
    var items = transfer.items ? Array.prototype.slice.call(transfer.items) : [];
    Array.prototype.forEach.call(transfer.files, function (file, index) {
      var item = items[index];
      var entry = item && item.webkitGetAsEntry ? item.webkitGetAsEntry() : null;
      if (entry && entry.isDirectory) { folders.push(file.name); } else { files.push(file); }
    });
    return { files: files, folders: folders };
  }

  var dropZone = document.getElementById("drop-zone");
  var input = document.getElementById("upload-input");
  if (dropZone && input && optionsForm && list) {
    ["dragenter", "dragover"].forEach(function (name) {
      dropZone.addEventListener(name, function (event) {
        event.preventDefault();
        dropZone.classList.add("dragging");
      });
    });
    ["dragleave", "dragend"].forEach(function (name) {
      dropZone.addEventListener(name, function () { dropZone.classList.remove("dragging"); });
    });
    dropZone.addEventListener("drop", function (event) {
      event.preventDefault();
      dropZone.classList.remove("dragging");
      var dropped = droppedFiles(event.dataTransfer);
      if (dropped.folders.length && !dropped.files.length) {
        showDropProblem(text("nothingDropped", "Nothing to upload: drop files."),
          dropped.folders.map(function (name) { return text("isFolder", "%s is a folder.").replace("%s", name); }));
        return;
      }
      startBatch(dropped.files);
      if (dropped.folders.length) {
        // The files go ahead; the folders are named so that nobody waits for them.
        var box = document.getElementById("drop-zone-errors");
        dropped.folders.forEach(function (name) {
          box.querySelector("[data-drop-list]").appendChild(
            element("li", "", text("isFolder", "%s is a folder.").replace("%s", name)));
        });
        box.hidden = false;
      }
    });
    dropZone.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); input.click(); }
    });
    input.addEventListener("change", function () {
      startBatch(Array.prototype.slice.call(input.files));
      input.value = "";
    });
  }

  paintSwatches(document);

  /* Uploads rendered by the server (after a reload, or on the uploads page) keep updating. */
  Array.prototype.forEach.call(document.querySelectorAll("li[data-status-url]"), function (node) {
    var item = new UploadItem(node);
    if (ACTIVE[node.dataset.state]) { item.poll(); }
  });
})();
