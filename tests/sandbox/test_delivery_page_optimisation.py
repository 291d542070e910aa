"""Page optimisation: JS/CSS combining (`/dir/!!a.js,b.js`) and HTML minification."""

from __future__ import annotations

import pytest

from tests.sandbox.test_delivery_support import Edge, Storage, assert_refused

PAGE = b"""<!DOCTYPE html>
<html>
  <head>
    <title>  Shop   front </title>
    <!-- build 42 -->
    <script>
      var greeting  =  "a   b";   // kept as written
    </script>
    <style>  p  {  color : red }  </style>
  </head>
  <body>
    <p>Hello   <b>big</b>   <i>world</i>
       again</p>
    <pre>  one
        two   </pre>
    <textarea>  keep   this  </textarea>
  </body>
</html>
"""


@pytest.fixture
def edge(sandbox):
    storage = Storage(sandbox)
    storage.put("/static/a.js", b"var a = 1;")
    storage.put("/static/b.js", b"var b = 2;\n")
    storage.put("/static/lib/c.js", b"var c = 3;")
    storage.put("/static/x.css", b"p { color: red }")
    storage.put("/static/y.css", b"h1 { color: blue }")
    storage.put("/static/index.html", PAGE)
    storage.put("/static/locked.js", b"var secret;", secret="abc")
    return Edge(sandbox)


def test_combining_joins_the_files_in_order(edge):
    edge.configure(combine=True)
    response = edge.get("/static/!!a.js,b.js,lib/c.js")
    assert response.status_code == 200
    assert response.content == b"var a = 1;\nvar b = 2;\nvar c = 3;\n"
    assert response.headers["Content-Type"] == "application/javascript"


def test_combining_css_gives_css(edge):
    edge.configure(combine=True)
    response = edge.get("/static/!!x.css,y.css")
    assert response.content == b"p { color: red }\nh1 { color: blue }\n"
    assert response.headers["Content-Type"] == "text/css"


def test_combining_is_off_by_default(edge):
    assert_refused(edge.get("/static/!!a.js,b.js"), 404, "40400001")


def test_combining_with_a_missing_file_names_it(edge):
    edge.configure(combine=True)
    body = assert_refused(edge.get("/static/!!a.js,nope.js"), 404, "40400001")
    assert "/static/nope.js" in body["msg"]


def test_a_protected_file_is_not_combined(edge):
    edge.configure(combine=True)
    assert_refused(edge.get("/static/!!a.js,locked.js"), 404, "40400001")


@pytest.mark.parametrize("listing", ["!!a.js,x.css", "!!a.js,,b.js", "!!readme.txt",
                                     "!!a.js,../b.js"])
def test_a_bad_combination_is_refused(edge, listing):
    edge.configure(combine=True)
    assert_refused(edge.get(f"/static/{listing}"), 400, "40000012")


def test_a_combination_is_cached(edge):
    edge.configure(combine=True)
    assert edge.get("/static/!!a.js,b.js").headers["X-Cache"] == "MISS"
    assert edge.get("/static/!!a.js,b.js").headers["X-Cache"] == "HIT"


def test_html_is_served_as_stored_without_minification(edge):
    assert edge.get("/static/index.html").content == PAGE


def test_minification_strips_comments_and_whitespace(edge):
    edge.configure(html_minify=True)
    html = edge.get("/static/index.html").text
    assert "<!-- build 42 -->" not in html
    assert "<title>Shop front</title>" in html
    assert "<p>Hello <b>big</b> <i>world</i> again</p>" in html
    assert "\n  <head>" not in html and "<html><head>" in html
    assert len(html) < len(PAGE)


def test_minification_never_touches_pre_textarea_script_or_style(edge):
    edge.configure(html_minify=True)
    html = edge.get("/static/index.html").text
    assert "<pre>  one\n        two   </pre>" in html
    assert "<textarea>  keep   this  </textarea>" in html
    assert 'var greeting  =  "a   b";   // kept as written\n    </script>' in html
    assert "<style>  p  {  color : red }  </style>" in html


def test_minification_leaves_other_types_alone(edge):
    edge.configure(html_minify=True)
    assert edge.get("/static/b.js").content == b"var b = 2;\n"
