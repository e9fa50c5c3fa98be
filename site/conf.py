"""Sphinx settings of the static site (built by `make site`, see tools/build_site.py).

Every script, style sheet, font and MathJax file is served from the site itself: the pages
make no request to another host, so they work offline.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import site_api  # noqa: E402  (tools/site_api.py: the API pages' docstrings read as Markdown)

project = "puzzlelab"
author = "puzzlelab"
copyright = "puzzlelab authors"  # noqa: A001 (Sphinx's name)

# autodoc and napoleon: the API reference from the docstrings (numpydoc sections), see
# tools/site_api.py
extensions = ["myst_nb", "sphinx.ext.autodoc", "sphinx.ext.napoleon"]
napoleon_google_docstring = False
napoleon_numpy_docstring = True
autodoc_member_order = "bysource"
autodoc_typehints = "signature"


def setup(app):
    """Docstrings use Markdown's inline style: made reStructuredText before napoleon reads them."""
    app.connect("autodoc-process-docstring", site_api.process_docstring, priority=400)
root_doc = "index"
exclude_patterns = ["_build", "**.ipynb_checkpoints", "_notebooks"]  # _notebooks: downloads
source_suffix = {".ipynb": "myst-nb", ".md": "myst-nb"}

# The publishing copies are executed beforehand with their widget state stored.
nb_execution_mode = "off"
nb_merge_streams = True
myst_enable_extensions = ["dollarmath"]
myst_heading_anchors = 3
# ref.python: a bare annotation (`Game`) names a class of more than one puzzle (API pages)
suppress_warnings = ["misc.highlighting_failure", "myst.header", "ref.python"]
# Folded code (every code cell but those tagged `algorithm`, see tools/site_pages.py).
nb_code_prompt_show = "Show code"
nb_code_prompt_hide = "Hide code"

html_theme = "sphinx_book_theme"
html_title = "puzzlelab"
html_static_path = ["_build/static", "static"]  # _build/static: from node_modules (build_site)
html_css_files = ["puzzlelab.css"]  # algorithm cells marked, appendices folded, labels
html_js_files = ["puzzlelab.js"]
html_use_index = False  # no general index page (the notebooks have no index entries)
html_domain_indices = False  # no module index page either (the API pages list the modules)
html_theme_options = {
    "home_page_in_toc": True,
    "show_navbar_depth": 1,
    "use_download_button": False,
    "use_fullscreen_button": False,
    "use_repository_button": False,
    "navigation_with_keys": False,
}
html_show_sourcelink = False
html_copy_source = False
html_last_updated_fmt = None

# MathJax and the ipywidgets HTML manager (with its RequireJS loader) from _static, no CDN.
mathjax_path = "mathjax/tex-chtml.js"
# with the MathJax 2 `Hub.Queue` that the widget manager calls to typeset widget labels
mathjax_config_path = "mathjax-config.js"
nb_ipywidgets_js = {
    "requirejs/require.min.js": {},
    "widgets/embed-amd.js": {"data-jupyter-widgets-cdn": "_static/widgets/"},
}
html_context = {"default_mode": "light"}
html_favicon = "favicon.svg"
