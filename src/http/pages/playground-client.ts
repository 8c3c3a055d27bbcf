/**
 * The playground's script: plain ES2022, no modules, no libraries. No backticks nor
 * dollar-brace sequences inside (it lives in a template literal).
 *
 * The stream is read with fetch and a ReadableStream (EventSource cannot POST nor send
 * headers): `meta` (accepted), `outline` (title and headings planned), `delta` (Markdown
 * pieces), then `done` or `error`. The growing Markdown is rendered by a tiny renderer for
 * the subset the engine writes (headings, paragraphs, lists, escapes) that builds DOM
 * nodes with `textContent` only: model text never becomes markup.
 */
export const CLIENT = String.raw`
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var form = $("form"), app = $("app"), statusText = $("status"), errorBox = $("error");
  var articleEl = $("article"), reportBody = $("report-body"), reportPending = $("report-pending"), source = $("source");
  var summary = $("summary"), fields = $("fields");
  var generateBtn = $("generate"), stopBtn = $("stop"), keyInput = $("f-key");
  var controller = null, markdown = "", renderQueued = false;

  try { keyInput.value = sessionStorage.getItem("inkpress.key") || ""; } catch (e) { /* storage off */ }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  // --- Markdown subset → DOM, text only -------------------------------------------------
  var ENTITIES = { amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'", nbsp: "\u00a0" };
  var INLINE = /\\([!-\/:-@\[-\x60{-~])|&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});/g;

  /** Backslash escapes and character references of CommonMark, undone: the result is plain text. */
  function inline(text) {
    return text.replace(INLINE, function (match, escaped, ref) {
      if (escaped) return escaped;
      if (ref.charAt(0) === "#") {
        var code = ref.charAt(1) === "x" || ref.charAt(1) === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
        return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : "\ufffd";
      }
      return Object.prototype.hasOwnProperty.call(ENTITIES, ref) ? ENTITIES[ref] : match;
    });
  }

  var HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
  var ITEM = /^ {0,3}([-*+]|\d{1,9}[.)])[ \t]+(.*)$/;

  /** Render Markdown (headings, paragraphs, lists) into a fragment of text-only nodes. */
  function renderMarkdown(md) {
    var fragment = document.createDocumentFragment();
    var block = null, list = null, ordered = false, gap = false;
    md.split(/\r\n|\r|\n/).forEach(function (line) {
      if (!line.trim()) { block = null; gap = true; return; }
      var heading = HEADING.exec(line);
      if (heading) {
        fragment.appendChild(el("h" + heading[1].length, null, inline(heading[2] || "")));
        block = null; list = null; gap = false;
        return;
      }
      var item = ITEM.exec(line);
      if (item) {
        var isOrdered = /\d/.test(item[1]);
        if (!list || ordered !== isOrdered) {
          list = el(isOrdered ? "ol" : "ul");
          ordered = isOrdered;
          fragment.appendChild(list);
        }
        block = el("li", null, inline(item[2]));
        list.appendChild(block);
        gap = false;
        return;
      }
      var text = inline(line.trim());
      if (block && !gap) { block.textContent += " " + text; return; }
      block = el("p", null, text);
      fragment.appendChild(block);
      list = null; gap = false;
    });
    return fragment;
  }

  function showArticle(md) {
    articleEl.replaceChildren(md.trim() ? renderMarkdown(md) : el("p", "placeholder", "Waiting for the first words…"));
  }

  function queueRender() {
    if (renderQueued) return;
    renderQueued = true;
    requestAnimationFrame(function () { renderQueued = false; showArticle(markdown); });
  }

  var segmenter = typeof Intl !== "undefined" && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: "word" }) : null;
  function countWords(text) {
    if (!segmenter) return text.split(/\s+/).filter(Boolean).length;
    var n = 0;
    for (var part of segmenter.segment(text)) if (part.isWordLike) n++;
    return n;
  }

  // --- Server-Sent Events over fetch ------------------------------------------------------
  /** Read an event stream, calling onEvent(name, data) per event, as the WHATWG parser does. */
  async function readEvents(body, onEvent) {
    var reader = body.getReader(), decoder = new TextDecoder(), buffer = "", name = "", data = [];
    for (;;) {
      var chunk = await reader.read();
      buffer += chunk.done ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
      for (;;) {
        var end = /\r\n|\r|\n/.exec(buffer);
        if (!end || (end[0] === "\r" && end.index === buffer.length - 1 && !chunk.done)) break;
        var line = buffer.slice(0, end.index);
        buffer = buffer.slice(end.index + end[0].length);
        if (line === "") {
          if (data.length) onEvent(name || "message", data.join("\n"));
          name = ""; data = [];
        } else if (line.charAt(0) !== ":") {
          var colon = line.indexOf(":");
          var field = colon < 0 ? line : line.slice(0, colon);
          var value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
          if (field === "event") name = value;
          else if (field === "data") data.push(value);
        }
      }
      if (chunk.done) return;
    }
  }

  // --- the request -------------------------------------------------------------------------
  function value(id) { return $(id).value.trim(); }

  function buildBody() {
    var body = { topic: value("f-topic") };
    var numbers = { length: "f-length", seed: "f-seed" };
    Object.keys(numbers).forEach(function (name) {
      var raw = value(numbers[name]);
      if (raw !== "") body[name] = Number(raw);
    });
    ["tone", "language", "structure"].forEach(function (name) {
      var raw = value("f-" + name);
      if (raw !== "") body[name] = raw;
    });
    var seo = { headingTags: $("f-seo.headingTags").checked };
    ["keywords", "title", "description"].forEach(function (name) {
      var raw = value("f-seo." + name);
      if (raw !== "") seo[name] = raw;
    });
    body.seo = seo;
    return body;
  }

  // --- output ------------------------------------------------------------------------------
  function setStatus(text) { statusText.textContent = text; }

  function setBusy(busy) {
    app.classList.toggle("busy", busy);
    articleEl.setAttribute("aria-busy", String(busy));
    generateBtn.disabled = busy;
    stopBtn.disabled = !busy;
    generateBtn.textContent = busy ? "Generating…" : "Generate";
  }

  function clearInvalid() {
    form.querySelectorAll("[aria-invalid]").forEach(function (input) { input.removeAttribute("aria-invalid"); });
  }

  /** Show an error: a heading, a sentence, and optionally a list and a link to its reference entry. */
  function showError(title, detail, items, href) {
    errorBox.replaceChildren(el("h2", null, title));
    if (detail) errorBox.appendChild(el("p", null, detail));
    if (items && items.length) {
      var ul = el("ul");
      items.forEach(function (text) { ul.appendChild(el("li", null, text)); });
      errorBox.appendChild(ul);
    }
    if (href) {
      var p = el("p"), a = el("a", null, "What this error means");
      a.href = href;
      p.appendChild(a);
      errorBox.appendChild(p);
    }
    errorBox.hidden = false;
  }

  /** A problem+json body, readable: status and title, detail, the invalid fields. */
  function showProblem(problem, retryAfter) {
    var status = Number(problem && problem.status) || 0;
    var title = (status ? status + " " : "") + ((problem && problem.title) || "Error");
    var detail = (problem && problem.detail) || "";
    if (retryAfter) detail += " Retry in " + retryAfter + " s.";
    var items = [];
    if (problem && Array.isArray(problem.errors)) {
      problem.errors.forEach(function (error) {
        items.push(String(error.path) + ": " + String(error.message));
        var input = document.getElementById("f-" + String(error.path));
        if (input && input.form === form) input.setAttribute("aria-invalid", "true");
      });
    }
    if (status === 401) keyInput.setAttribute("aria-invalid", "true");
    var type = problem && typeof problem.type === "string" && /^\/docs#[a-z-]+$/.test(problem.type) ? problem.type : null;
    showError(title, detail, items, type);
    setStatus(status === 401 ? "Check the API key." : "The request failed.");
  }

  async function showHttpError(response) {
    var type = response.headers.get("content-type") || "";
    var text = await response.text();
    if (/json/.test(type)) {
      try { return showProblem(JSON.parse(text), response.headers.get("retry-after")); } catch (e) { /* not JSON after all */ }
    }
    showProblem({ status: response.status, title: response.statusText || "Error", detail: text.slice(0, 300) });
  }

  var CHECK_STATES = { pass: ["✓", "passed"], fail: ["✗", "failed"], na: ["–", "not applicable"] };
  var CHECK_LABELS = JSON.parse($("checks").dataset.labels || "{}");

  /** A check's name in words; a check this page does not know by its id, in words. */
  function checkLabel(id) {
    if (Object.prototype.hasOwnProperty.call(CHECK_LABELS, id)) return CHECK_LABELS[id];
    var words = String(id).replace(/-/g, " ");
    return words.charAt(0).toUpperCase() + words.slice(1);
  }

  function checkItem(check, kind) {
    var li = el("li", kind), label = checkLabel(check.id);
    li.dataset.check = String(check.id);
    li.appendChild(el("span", "icon", CHECK_STATES[kind][0]));
    var text = el("div");
    var name = el("div", "name", label);
    name.appendChild(el("span", "state", CHECK_STATES[kind][1]));
    text.appendChild(name);
    text.appendChild(el("div", "msg", check.message));
    li.appendChild(text);
    li.setAttribute("aria-label", label + ": " + CHECK_STATES[kind][1] + ". " + check.message);
    return li;
  }

  function seconds(ms) { return (ms / 1000).toFixed(1) + " s"; }

  function stat(dl, label, text, wide) {
    var box = el("div", wide ? "wide" : null);
    box.appendChild(el("dt", null, label));
    box.appendChild(el("dd", null, text));
    dl.appendChild(box);
  }

  function showReport(answer) {
    var article = answer.article, seo = answer.seo, request = answer.request || {};
    var score = Number(seo.score) || 0;
    $("score-value").textContent = String(score);
    $("score-bar").style.width = Math.max(0, Math.min(100, score)) + "%";
    $("score").className = "score " + (score >= 80 ? "high" : score >= 50 ? "mid" : "low");

    var stats = $("stats");
    stats.replaceChildren();
    stat(stats, "Words", article.wordCount + (request.length ? " of " + request.length : ""));
    stat(stats, "Reading time", article.readingTimeMinutes + " min");
    stat(stats, "Language", article.language);
    stat(stats, "Structure", request.structure || "");
    stat(stats, "Seed", request.seed === undefined ? "" : String(request.seed));
    stat(stats, "Time", answer.usage ? seconds(answer.usage.durationMs) : "");
    stat(stats, "Title", article.title, true);
    stat(stats, "Slug", article.slug, true);
    stat(stats, "Meta description", article.metaDescription, true);
    var density = Object.keys(seo.keywordDensity || {}).map(function (k) { return k + " " + seo.keywordDensity[k] + "%"; });
    if (density.length) stat(stats, "Keyword density", density.join(" · "), true);

    // Checks that cannot apply to this article (passed: null) are folded away below the others.
    var list = $("checks"), naList = $("na-list"), counts = { pass: 0, fail: 0, na: 0 };
    list.replaceChildren();
    naList.replaceChildren();
    (seo.checks || []).forEach(function (check) {
      var kind = check.passed === true ? "pass" : check.passed === false ? "fail" : "na";
      counts[kind]++;
      (kind === "na" ? naList : list).appendChild(checkItem(check, kind));
    });
    $("checks-summary").textContent = counts.pass + " passed · " + counts.fail + " failed";
    $("na-summary").textContent = counts.na + (counts.na === 1 ? " check does" : " checks do") + " not apply to this article";
    $("na-checks").hidden = counts.na === 0;
    $("na-checks").open = false;
    reportPending.hidden = true;
    reportBody.hidden = false;

    $("summary-score").textContent = String(score);
    $("summary-words").textContent = article.wordCount + " words";
    $("summary-time").textContent = answer.usage ? seconds(answer.usage.durationMs) : "";
    summary.hidden = false;
  }

  /** Fold the form to one line (only narrow screens show it folded), so the article is near the top. */
  function fold(folded) {
    form.classList.toggle("folded", folded);
    $("unfold").setAttribute("aria-expanded", String(!folded));
    if (!folded) return;
    $("form-summary").textContent = value("f-topic") + " · " + (value("f-length") || "default") + " words";
    if (getComputedStyle(fields).display === "none") form.scrollIntoView({ block: "start" });
  }

  function reset() {
    markdown = "";
    errorBox.hidden = true;
    errorBox.replaceChildren();
    reportBody.hidden = true;
    reportPending.hidden = false;
    summary.hidden = true;
    source.hidden = true;
    clearInvalid();
    articleEl.replaceChildren(el("p", "placeholder", "Waiting for a free slot and the first words…"));
  }

  form.addEventListener("submit", async function (event) {
    event.preventDefault();
    if (controller) return;
    reset();
    var key = keyInput.value.trim();
    var missing = [];
    if (!key) { missing.push("API key"); keyInput.setAttribute("aria-invalid", "true"); }
    if (!value("f-topic")) { missing.push("topic"); $("f-topic").setAttribute("aria-invalid", "true"); }
    if (missing.length) {
      showError("Missing " + missing.join(" and "), "Fill in the highlighted fields, then press Generate again.");
      articleEl.replaceChildren(el("p", "placeholder", "The article appears here as it is written."));
      return;
    }
    try { sessionStorage.setItem("inkpress.key", key); } catch (e) { /* storage off */ }

    controller = new AbortController();
    fold(true);
    setBusy(true);
    setStatus("Sending the request…");
    var started = performance.now(), finished = false;
    try {
      var response = await fetch("/api/v1/generate", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "text/event-stream", "x-api-key": key },
        body: JSON.stringify(buildBody()),
        signal: controller.signal,
      });
      if (!response.ok || !/^text\/event-stream/.test(response.headers.get("content-type") || "")) {
        articleEl.replaceChildren(el("p", "placeholder", "No article: the request was refused."));
        fold(false); // the fields to correct are in the form
        await showHttpError(response);
        return;
      }
      setStatus("Waiting for a free slot and the first words…");
      await readEvents(response.body, function (name, data) {
        var payload;
        try { payload = JSON.parse(data); } catch (e) { return; }
        if (name === "meta") {
          setStatus("Planning the outline…");
        } else if (name === "outline") {
          setStatus("Writing “" + payload.title + "”…");
        } else if (name === "delta") {
          markdown += payload.text;
          queueRender();
          setStatus("Writing… " + countWords(markdown) + " words so far");
        } else if (name === "done") {
          finished = true;
          markdown = payload.article.markdown;
          showArticle(markdown);
          showReport(payload);
          $("markdown").textContent = markdown;
          source.hidden = false;
          setStatus("Done: " + payload.article.wordCount + " words in " + seconds(performance.now() - started) + ", SEO score " + payload.seo.score + ".");
        } else if (name === "error") {
          finished = true;
          showArticle(markdown);
          showProblem(payload);
          setStatus("Generation stopped with an error.");
        }
      });
      if (!finished) showError("The stream ended early", "The server closed the connection before the article was finished.");
    } catch (error) {
      if (error && error.name === "AbortError") {
        setStatus("Stopped. Nothing more will be generated for this request.");
      } else {
        showError("Could not reach the server", String((error && error.message) || error));
        setStatus("The request failed.");
      }
    } finally {
      controller = null;
      setBusy(false);
    }
  });

  stopBtn.addEventListener("click", function () { if (controller) controller.abort(); });

  $("unfold").addEventListener("click", function () {
    fold(false);
    $("f-topic").focus();
  });

  $("copy").addEventListener("click", function () {
    var button = this;
    if (!navigator.clipboard) return;
    navigator.clipboard.writeText(markdown).then(function () {
      button.textContent = "Copied";
      setTimeout(function () { button.textContent = "Copy Markdown"; }, 1500);
    }, function () {});
  });

  form.addEventListener("input", function (event) {
    if (event.target && event.target.removeAttribute) event.target.removeAttribute("aria-invalid");
  });
})();
`;
