/* Direct uploads: the browser sends the file straight to the storage service with requests the
 * back-office signed (docs/decisions.md, "Direct browser uploads"); no byte goes through a web
 * node. Used by browser.js for uploads whose status says route "direct":
 * - method "form": one FORM API post with a policy for this file (path, size, options);
 * - method "multipart": initiate, then the parts, `in_flight` at once (the provider's parallel
 *   mode), each signed with its own MD5 (SparkMD5, vendored), then complete.
 * Requests to the back-office are kept off the way of the bytes: the initiate's signature comes
 * with the upload's opening, the provider's task uuid and the parts it took ride along with the
 * next signing request (so a reloaded page sends only the missing ones), and the completion's
 * signature comes with the last parts'. Completion is reported and checked by the back-office
 * (HEAD). A signature the provider finds too old is asked for again
 * at once; a failed connection is retried ("connection lost, retrying (attempt n)") until
 * `pauseAfterMs`, then "paused" with Resume; any other refusal shows the provider's reason.
 * Plain JavaScript; exposes window.StorageDirect.send(file, item, status, finished, env, initiate). */
(function () {
  "use strict";

  // Signatures asked for in one request: enough to keep the parts in flight busy.
  var SIGN_AHEAD = 8;
  var REPORT_TRIES = 5;
  var REPORT_MS = 1000;
  // The provider's answers that a fresh signature cures: a date out of its window (401,
  // 40100002), an expired FORM policy (403, 40300006).
  var EXPIRED = { 40100002: true, 40300006: true };
  // A part the provider holds already (40001031): it arrived before a reload or a lost answer.
  var DUPLICATE_PART = 40001031;
  // The provider completed this task before (a lost answer to our complete).
  var COMPLETED = 40011059;

  function postJson(env, url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin", body: JSON.stringify(body),
      headers: { "X-CSRFToken": env.csrfToken(), "Accept": "application/json",
                 "Content-Type": "application/json" }
    }).then(function (response) {
      return response.json().then(function (answer) { return { code: response.status, answer: answer }; },
        function () { return { code: response.status, answer: null }; });
    });
  }

  /* One request to the provider, as XMLHttpRequest (for upload progress). Resolves with
   * {status, answer (parsed JSON or null), xhr}; status 0 when no answer came. */
  function sendToProvider(env, method, url, headers, body, onProgress) {
    return new Promise(function (resolve) {
      var xhr = new XMLHttpRequest();
      xhr.open(method, url);
      xhr.timeout = env.partTimeoutMs;
      Object.keys(headers || {}).forEach(function (name) { xhr.setRequestHeader(name, headers[name]); });
      if (onProgress) {
        xhr.upload.addEventListener("progress", function (event) {
          if (event.lengthComputable) { onProgress(event.loaded, event.total); }
        });
      }
      function done(status) {
        var answer = null;
        try { answer = JSON.parse(xhr.responseText); } catch (ignored) { answer = null; }
        resolve({ status: status, answer: answer, xhr: xhr, timedOut: status === -1 });
      }
      xhr.addEventListener("load", function () { done(xhr.status); });
      xhr.addEventListener("error", function () { done(0); });
      xhr.addEventListener("timeout", function () { done(-1); });
      xhr.send(body === undefined ? null : body);
    });
  }

  function refusalOf(reply) {
    var answer = reply.answer || {};
    return { status: reply.status, code: answer.code, msg: answer.msg || "", detail: answer.detail || "",
             id: answer.id || "" };
  }

  function md5Of(blob) {
    return blob.arrayBuffer().then(function (buffer) { return window.SparkMD5.ArrayBuffer.hash(buffer); });
  }

  function DirectUpload(file, item, status, finished, env, initiate) {
    this.file = file;
    this.item = item;
    this.status = status;
    this.finished = finished;
    this.env = env;
    this.done = {};
    this.newlyDone = [];
    this.signed = {};
    this.signing = null;
    this.queue = [];
    this.active = 0;
    this.sentBytes = 0;
    this.loading = {};
    this.attempt = 0;
    this.failingSince = null;
    this.stopped = false;
    this.released = false;
    this.timer = null;
    this.initiateRequest = initiate || null;  // signed when the upload was opened
    this.uuidToReport = null;
    this.completeRequest = null;  // signed with the last parts
    this.batchesSigned = 0;
    var self = this;
    (status.parts_done || []).forEach(function (id) { self.done[id] = true; });
  }

  DirectUpload.prototype.text = function (key, fallback) { return this.env.text(key, fallback); };

  DirectUpload.prototype.partLength = function (id) {
    var size = this.status.part_size;
    return Math.max(0, Math.min(size, this.file.size - id * size));
  };

  DirectUpload.prototype.release = function (keepSender) {
    this.stopped = true;
    if (!keepSender) { this.item.sender = null; }
    if (!this.released) { this.released = true; this.finished(); }
  };

  /* The provider or the back-office could not be reached: try again, then pause. */
  DirectUpload.prototype.later = function (reason, again) {
    var self = this;
    this.attempt += 1;
    if (this.failingSince === null) { this.failingSince = Date.now(); }
    window.clearTimeout(this.timer);
    if (Date.now() - this.failingSince >= this.env.pauseAfterMs) {
      this.stopped = true;
      this.item.paused(reason, function () { self.restart(again); });
      this.release(true);
      return;
    }
    this.item.retrying(this.attempt, reason, function () { window.clearTimeout(self.timer); again(); });
    this.timer = window.setTimeout(again, this.env.retryMs);
  };

  DirectUpload.prototype.restart = function (again) {
    this.attempt = 0;
    this.failingSince = null;
    this.stopped = false;
    this.released = false;
    this.item.setState("sending", this.text("sending", "sending"));
    again();
  };

  DirectUpload.prototype.recovered = function () {
    if (this.attempt === 0) { return; }
    this.attempt = 0;
    this.failingSince = null;
    var button = this.item.node.querySelector("[data-retry]");
    if (button) { button.hidden = true; }
    this.item.setState("sending", this.text("sending", "sending"));
  };

  DirectUpload.prototype.unreachable = function (reply) {
    if (reply.timedOut) {
      return this.text("timedOut", "No answer within %s seconds.")
        .replace("%s", String(Math.round(this.env.partTimeoutMs / 1000)));
    }
    if (reply.status === 0) { return this.text("providerLost", "The connection to the storage service was lost."); }
    return this.text("busy", "The storage service is busy.");
  };

  /* The provider refused for good: the back-office words its reason (errno) on the task. */
  DirectUpload.prototype.refuse = function (reply) {
    var self = this;
    this.stopped = true;
    postJson(this.env, this.status.report_url, { refusal: refusalOf(reply) }).then(function (report) {
      if (report.answer && report.answer.upload) { self.item.apply(report.answer.upload); }
      self.item.refused((report.answer && report.answer.upload && report.answer.upload.error) ||
        refusalOf(reply).msg);
    }, function () { self.item.refused(refusalOf(reply).msg); });
    this.release(true);
  };

  DirectUpload.prototype.backOfficeRefused = function (reply) {
    this.stopped = true;
    this.item.refused(this.env.errorsText(reply.answer, reply.code));
    this.release(true);
  };

  /* Resume after a refusal or a pause (the task was opened again by the server). */
  DirectUpload.prototype.resumeWith = function (status) {
    var self = this;
    this.status = Object.assign({}, this.status, status);
    this.signed = {};
    this.active = 0;
    this.loading = {};
    this.restart(function () {
      self.item.sender = self;
      if (self.status.method === "form") { self.sendForm(0); } else { self.initiate(0); }
    });
  };

  DirectUpload.prototype.start = function () {
    this.item.sender = this;
    this.item.apply(this.status);  // drawn again now that this page is sending it
    if (this.status.state !== "uploading") { this.release(); return; }
    if (this.status.method === "form") { this.sendForm(0); } else { this.initiate(0); }
  };

  /* --- one request (FORM API) -------------------------------------------------------------- */

  DirectUpload.prototype.sendForm = function (renewed) {
    var self = this;
    postJson(this.env, this.status.sign_url, { stage: "form" }).then(function (reply) {
      if (reply.code !== 200) { self.backOfficeRefused(reply); return; }
      var grant = reply.answer;
      var body = new FormData();
      Object.keys(grant.fields).forEach(function (name) { body.append(name, grant.fields[name]); });
      body.append("file", self.file, self.file.name);
      return sendToProvider(self.env, "POST", grant.url, {}, body, function (loaded, total) {
        self.item.setLeg("part", total ? loaded / total : 1, self.env.formatBytes(loaded));
        self.item.setOverall(Math.min(loaded, self.file.size), self.file.size);
      }).then(function (sent) {
        if (sent.status === 200) { self.recovered(); self.report(false, 0, sent.answer); return; }
        var code = sent.answer && sent.answer.code;
        if (EXPIRED[code] && renewed < 3) { self.sendForm(renewed + 1); return; }
        if (sent.status <= 0 || sent.status >= 500 || sent.status === 429) {
          self.later(self.unreachable(sent), function () { self.sendForm(0); });
          return;
        }
        self.refuse(sent);
      });
    }, function () {
      self.later(self.text("noAnswer", "The back-office did not answer."), function () { self.sendForm(0); });
    });
  };

  /* --- in parts (REST, parallel mode) ------------------------------------------------------ */

  DirectUpload.prototype.initiate = function (renewed) {
    var self = this;
    if (this.status.uuid) { this.sendParts(); return; }
    var signed = this.initiateRequest && !renewed ? Promise.resolve({ code: 200, answer: { requests: [this.initiateRequest] } })
      : postJson(this.env, this.status.sign_url, { stage: "initiate" });
    this.initiateRequest = null;  // used once: a retry asks for a fresh one
    signed.then(function (reply) {
      if (reply.code !== 200) { self.backOfficeRefused(reply); return; }
      var request = reply.answer.requests[0];
      return sendToProvider(self.env, request.method, request.url, request.headers, null).then(function (sent) {
        var uuid = sent.xhr.getResponseHeader("x-svc-multi-uuid");
        if (sent.status === 204 && uuid) {
          // Reported with the first parts' signing request, which needs it.
          self.status = Object.assign({}, self.status, { uuid: uuid, parts_done: [] });
          self.uuidToReport = uuid;
          self.done = {};
          self.newlyDone = [];  // a new task holds none of the parts of an earlier one
          self.recovered();
          self.sendParts();
          return;
        }
        if (EXPIRED[sent.answer && sent.answer.code] && renewed < 3) { self.initiate(renewed + 1); return; }
        if (sent.status <= 0 || sent.status >= 500 || sent.status === 429) {
          self.later(self.unreachable(sent), function () { self.initiate(0); });
          return;
        }
        self.refuse(sent);
      });
    }).catch(function () {
      self.later(self.text("noAnswer", "The back-office did not answer."), function () { self.initiate(0); });
    });
  };

  DirectUpload.prototype.sendParts = function () {
    var count = this.status.parts;
    this.queue = [];
    this.sentBytes = 0;
    for (var id = 0; id < count; id += 1) {
      if (this.done[id]) { this.sentBytes += this.partLength(id); } else { this.queue.push(id); }
    }
    this.showProgress();
    this.pump();
  };

  DirectUpload.prototype.showProgress = function () {
    var self = this;
    var loading = Object.keys(this.loading).reduce(function (sum, id) { return sum + self.loading[id]; }, 0);
    this.item.setOverall(Math.min(this.sentBytes + loading, this.file.size), this.file.size);
  };

  DirectUpload.prototype.pump = function () {
    if (this.stopped) { return; }
    if (!this.queue.length && !this.active) { this.complete(0); return; }
    while (this.active < this.status.in_flight && this.queue.length) {
      this.active += 1;
      this.sendPart(this.queue.shift(), 0);
    }
    this.prefetch();
  };

  /* Hash and sign the next parts while the ones in flight are sent, so that a free slot does
   * not wait for them. A failure here is met again, and shown, when the part's turn comes. */
  DirectUpload.prototype.prefetch = function () {
    var self = this;
    if (this.signing || this.stopped) { return; }
    var unsigned = this.queue.filter(function (id) { return !self.signed[id]; });
    if (unsigned.length && this.queue.length - unsigned.length < this.status.in_flight) {
      this.signatureFor(unsigned[0]).catch(function () { return null; });
    }
  };

  /* The signed request of part `id`: from the last batch, or a new batch for the next parts
   * waiting (their MD5s computed here), with the parts taken since the last call. */
  DirectUpload.prototype.signatureFor = function (id) {
    var self = this;
    if (this.signed[id]) { return Promise.resolve(this.signed[id]); }
    if (this.signing) { return this.signing.then(function () { return self.signatureFor(id); }); }
    var unsigned = this.queue.filter(function (other) { return other !== id && !self.signed[other]; });
    // The first batch is as many parts as go at once, so that the first bytes leave early.
    var batch = this.batchesSigned ? SIGN_AHEAD : Math.min(SIGN_AHEAD, this.status.in_flight);
    var ids = [id].concat(unsigned.slice(0, batch - 1));
    var last = unsigned.length <= batch - 1;
    var parts = [];
    var hashing = ids.reduce(function (chain, part) {
      return chain.then(function () {
        var start = part * self.status.part_size;
        return md5Of(self.file.slice(start, start + self.partLength(part))).then(function (md5) {
          parts.push({ id: part, md5: md5 });
        });
      });
    }, Promise.resolve());
    var reported = this.newlyDone.splice(0);
    this.signing = hashing.then(function () {
      var body = { stage: "upload", parts: parts, parts_done: reported, complete: last };
      if (self.uuidToReport) { body.uuid = self.uuidToReport; }
      return postJson(self.env, self.status.sign_url, body);
    }).then(function (reply) {
      self.signing = null;
      if (reply.code !== 200) {
        self.newlyDone = reported.concat(self.newlyDone);
        throw reply;
      }
      self.uuidToReport = null;
      self.batchesSigned += 1;
      reply.answer.requests.forEach(function (request) { self.signed[request.part] = request; });
      if (reply.answer.complete) { self.completeRequest = reply.answer.complete; }
      return self.signed[id];
    }, function (error) {
      self.signing = null;
      self.newlyDone = reported.concat(self.newlyDone);
      throw error;
    });
    return this.signing;
  };

  DirectUpload.prototype.sendPart = function (id, renewed) {
    var self = this;
    var start = id * this.status.part_size;
    var blob = this.file.slice(start, start + this.partLength(id));
    this.signatureFor(id).then(function (request) {
      if (self.stopped) { self.active -= 1; self.queue.unshift(id); return; }
      return sendToProvider(self.env, request.method, request.url, request.headers, blob,
        function (loaded, total) {
          self.loading[id] = loaded;
          self.item.setLeg("part", total ? loaded / total : 1, "#" + id + " · " + self.env.formatBytes(loaded));
          self.showProgress();
        }).then(function (sent) {
        delete self.loading[id];
        var code = sent.answer && sent.answer.code;
        if (sent.status === 204 || code === DUPLICATE_PART) {
          self.recovered();
          self.active -= 1;
          self.partDone(id);
          self.pump();
          return;
        }
        delete self.signed[id];
        if (EXPIRED[code] && renewed < 3) {
          self.signed = {};  // every signature of the batch is as old
          self.sendPart(id, renewed + 1);
          return;
        }
        self.active -= 1;
        self.queue.unshift(id);
        if (sent.status <= 0 || sent.status >= 500 || sent.status === 429) {
          if (!self.stopped) { self.stopped = true; self.later(self.unreachable(sent), function () { self.resend(); }); }
          return;
        }
        if (!self.stopped) { self.refuse(sent); }
      });
    }).catch(function (reply) {
      self.active -= 1;
      self.queue.unshift(id);
      if (self.stopped) { return; }
      self.stopped = true;
      if (reply && reply.code && reply.code < 500) { self.backOfficeRefused(reply); return; }
      self.later(self.text("noAnswer", "The back-office did not answer."), function () { self.resend(); });
    });
  };

  DirectUpload.prototype.resend = function () {
    this.stopped = false;
    this.queue.sort(function (a, b) { return a - b; });
    this.pump();
  };

  DirectUpload.prototype.partDone = function (id) {
    var self = this;
    if (this.done[id]) { return; }
    this.done[id] = true;
    this.newlyDone.push(id);
    this.sentBytes += this.partLength(id);
    this.showProgress();
    // The parts taken are told to the back-office at most every REPORT_MS (or with the next
    // signing request), so that a reloaded page sends only the others.
    if (!this.reportTimer) {
      this.reportTimer = window.setTimeout(function () { self.flushParts(); }, REPORT_MS);
    }
  };

  DirectUpload.prototype.flushParts = function () {
    var self = this;
    this.reportTimer = null;
    var reported = this.newlyDone.splice(0);
    if (!reported.length) { return; }
    postJson(this.env, this.status.report_url, { parts: reported }).then(function (reply) {
      if (reply.code !== 200) { self.newlyDone = reported.concat(self.newlyDone); }
    }, function () { self.newlyDone = reported.concat(self.newlyDone); });
  };

  /* Every part is at the provider: sign and send the completion, then report it. */
  DirectUpload.prototype.complete = function (renewed) {
    var self = this;
    var presigned = !renewed && this.completeRequest;
    this.completeRequest = null;  // used once: a retry asks for a fresh one
    var reported = presigned ? [] : this.newlyDone.splice(0);
    var signed = presigned ? Promise.resolve({ code: 200, answer: { requests: [presigned] } })
      : postJson(this.env, this.status.sign_url, { stage: "complete", parts_done: reported });
    signed.then(function (reply) {
      if (reply.code !== 200) { self.backOfficeRefused(reply); return; }
      var request = reply.answer.requests[0];
      return sendToProvider(self.env, request.method, request.url, request.headers, null).then(function (sent) {
        var code = sent.answer && sent.answer.code;
        if (sent.status === 201 || sent.status === 204 || code === COMPLETED) {
          self.recovered();
          self.report(sent.status === 204, 0);
          return;
        }
        if (EXPIRED[code] && renewed < 3) { self.complete(renewed + 1); return; }
        if (sent.status <= 0 || sent.status >= 500 || sent.status === 429) {
          self.later(self.unreachable(sent), function () { self.complete(0); });
          return;
        }
        self.refuse(sent);
      });
    }).catch(function () {
      self.newlyDone = reported.concat(self.newlyDone);
      self.later(self.text("noAnswer", "The back-office did not answer."), function () { self.complete(0); });
    });
  };

  /* `answer` is the FORM API's answer: its image size and theme colours are shown. */
  DirectUpload.prototype.report = function (replaced, tries, answer) {
    var self = this;
    var body = { done: true, replaced: replaced };
    if (answer) { body.answer = answer; }
    postJson(this.env, this.status.report_url, body).then(function (reply) {
      if (reply.code === 200) {
        window.clearTimeout(self.reportTimer);  // the parts need no report once it is done
        self.reportTimer = null;
        self.item.setLeg("part", 1);
        self.item.apply(reply.answer.upload);
        self.release();
        return;
      }
      if (reply.code === 409 && tries < REPORT_TRIES) {
        // The provider may show the file a moment after it answered.
        window.setTimeout(function () { self.report(replaced, tries + 1, answer); }, 500 * (tries + 1));
        return;
      }
      self.backOfficeRefused(reply);
    }, function () {
      self.later(self.text("noAnswer", "The back-office did not answer."), function () { self.report(replaced, 0, answer); });
    });
  };

  window.StorageDirect = {
    send: function (file, item, status, finished, env, initiate) {
      var upload = new DirectUpload(file, item, status, finished, env, initiate);
      upload.start();
      return upload;
    }
  };
})();
