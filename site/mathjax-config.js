// MathJax 3 configuration of the site's pages (Sphinx inlines it before MathJax's own script).
//
// The ipywidgets HTML manager typesets widget labels with MathJax 2's API,
// `MathJax.Hub.Queue(["Typeset", MathJax.Hub, element])`, which MathJax 3 no longer has.
// `Hub.Queue` is given here to every object that becomes `window.MathJax` (this configuration,
// then the MathJax 3 object that replaces it) and typesets the element with MathJax 3 once
// MathJax has started; labels queued before that are typeset when it starts.
(function () {
  "use strict";
  const waiting = [];

  function typeset(element) {
    const mathjax = window.MathJax;
    if (mathjax.typesetPromise && mathjax.startup && mathjax.startup.promise) {
      mathjax.startup.promise
        .then(() => mathjax.typesetPromise([element]))
        .catch((error) => console.warn("MathJax could not typeset a widget label:", error));
    } else {
      waiting.push(element);
    }
  }

  const hub = {
    Queue(...jobs) {
      for (const job of jobs) {
        if (Array.isArray(job) && job[0] === "Typeset" && job[2]) typeset(job[2]);
      }
    },
  };

  function withHub(mathjax) {
    if (mathjax && typeof mathjax === "object" && !("Hub" in mathjax)) {
      Object.defineProperty(mathjax, "Hub", { value: hub, enumerable: false });
    }
    return mathjax;
  }

  // Keep the configuration Sphinx set before this script (its processHtmlClass: "math", without
  // which MathJax skips the pages' sections, marked mathjax_ignore by MyST-NB).
  let current = withHub(Object.assign({}, window.MathJax, {
    startup: {
      ready() {
        window.MathJax.startup.defaultReady();
        window.MathJax.startup.promise.then(() => waiting.splice(0).forEach(typeset));
      },
    },
  }));
  Object.defineProperty(window, "MathJax", {
    configurable: true,
    get: () => current,
    set: (mathjax) => { current = withHub(mathjax); },
  });
})();
