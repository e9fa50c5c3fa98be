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
