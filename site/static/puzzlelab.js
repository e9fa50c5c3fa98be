// Appendices folded: a section whose heading starts with "Appendix" becomes a <details> whose
// summary is that heading; it opens when a link (the page contents, a citation) points into it.
(function () {
  "use strict";
  const APPENDIX = /^\s*Appendix\b/i;

  function heading(section) {
    const first = section.firstElementChild;
    return first && /^H[1-6]$/.test(first.tagName) ? first : null;
  }

  function fold() {
    const article = document.querySelector("article.bd-article") || document.body;
    for (const section of article.querySelectorAll("section")) {
      const head = heading(section);
      if (!head || !APPENDIX.test(head.textContent)) continue;
      if (section.closest("details.puzzlelab-appendix")) continue;
      const details = document.createElement("details");
      details.className = "puzzlelab-appendix";
      const summary = document.createElement("summary");
      summary.appendChild(head);
      details.appendChild(summary);
      while (section.firstChild) details.appendChild(section.firstChild);
      section.appendChild(details);
    }
    openTarget();
  }

  function openTarget() {
    const id = decodeURIComponent(window.location.hash.slice(1));
    const target = id && document.getElementById(id);
    if (!target) return;
    for (let d = target.closest("details"); d; d = d.parentElement.closest("details")) d.open = true;
    target.scrollIntoView();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fold);
  else fold();
  window.addEventListener("hashchange", openTarget);
})();

// Pictures drawn by widgets (a static explorer's views) get an alt text as they appear (the
// section they illustrate and the view chosen) and open full size on a click, as the pictures
// of cell outputs do (tools/site_html.py).
(function () {
  "use strict";

  function section(img) {
    let node = img.closest("section");
    const head = node && node.querySelector(":scope > h1, :scope > h2, :scope > h3, :scope > h4");
    return head ? head.textContent.replace(/#/g, "").trim() : "this page";
  }

  function chosen(img) {
    const box = img.closest(".cell_output");
    const select = box && box.querySelector("select");
    if (select && select.selectedIndex >= 0) return select.options[select.selectedIndex].text;
    const slider = box && box.querySelector("[aria-valuetext]");
    return slider ? slider.getAttribute("aria-valuetext") : "";
  }

  // An inline picture (data: address) as a file the browser can open: a blob: address.
  function fileOf(src) {
    const match = /^data:(image\/[\w+]+);base64,(.*)$/s.exec(src);
    if (!match) return src.startsWith("data:") ? null : src;
    const bytes = atob(match[2]);
    const buffer = new Uint8Array(bytes.length);
    for (let i = 0; i < bytes.length; i++) buffer[i] = bytes.charCodeAt(i);
    return URL.createObjectURL(new Blob([buffer], {type: match[1]}));
  }

  function name(root) {
    for (const img of root.querySelectorAll("img:not([alt])")) {
      const view = chosen(img);
      img.alt = "Figure of the section \u201c" + section(img) + "\u201d" + (view ? ", view " + view : "");
    }
    for (const img of root.querySelectorAll(".cell_output img")) {
      if (img.closest("a") || !img.src) continue;
      const href = fileOf(img.getAttribute("src"));
      if (!href) continue;
      const link = document.createElement("a");
      link.className = "puzzlelab-full-size";
      link.href = href;
      link.title = "Open the figure full size";
      img.replaceWith(link);
      link.appendChild(img);
    }
  }

  function watch() {
    const article = document.querySelector("article.bd-article") || document.body;
    name(article);
    new MutationObserver(() => name(article)).observe(article, {childList: true, subtree: true});
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", watch);
  else watch();
})();
