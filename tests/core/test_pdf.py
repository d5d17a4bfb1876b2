"""PDF rendering shared by every app (core/pdf.py): static files only, never the network; safe file names."""

import socket

import pytest

from core import pdf


@pytest.mark.parametrize(
    "url",
    [
        "http://example.com/x.png",
        "https://example.com/x.css",
        "ftp://example.com/x",
        "file:///etc/passwd",
        (pdf.STATIC_DIR / "css" / ".." / ".." / "pyproject.toml").as_uri(),
        "file://example.com/static/css/pdf.css",
    ],
)
def test_url_fetcher_refuses_anything_but_local_static_files(url):
    fetcher = pdf.StaticOnlyFetcher()
    with pytest.raises(pdf.RefusedURL):
        fetcher.fetch(url)
    assert fetcher.refused == [url]


def test_url_fetcher_serves_static_files_and_data_uris():
    fetcher = pdf.StaticOnlyFetcher()
    response = fetcher.fetch((pdf.STATIC_DIR / "css" / "pdf.css").as_uri())
    assert b"@font-face" in response.read()
    assert response.content_type == "text/css"
    response = fetcher.fetch("data:text/plain,hello")
    assert response.read() == b"hello"


def test_rendering_never_opens_a_network_connection(monkeypatch):
    def no_network(*args, **kwargs):  # pragma: no cover - failing is the point
        raise AssertionError("PDF rendering tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    fetcher = pdf.StaticOnlyFetcher()
    html = (
        '<link rel="stylesheet" href="https://example.com/evil.css">'
        '<link rel="stylesheet" href="css/pdf.css">'
        '<p>hello <img src="http://example.com/pixel.png"></p>'
        "<style>@import url(http://example.com/i.css); p { background: url(https://example.com/b.png) }</style>"
    )
    data = pdf.html_to_pdf(html, "A4", fetcher)
    assert data.startswith(b"%PDF")
    assert set(fetcher.refused) >= {
        "https://example.com/evil.css",
        "http://example.com/pixel.png",
        "http://example.com/i.css",
        "https://example.com/b.png",
    }


def test_pdf_filename_is_safe():
    assert pdf.pdf_filename("Saints of <Rust>!", "roster") == "saints-of-rust-roster.pdf"
    assert pdf.pdf_filename('"; rm -rf / ;"', "roster") == "rm-rf-roster.pdf"
    assert pdf.pdf_filename("Ωμέγα", "roster") == "crew-roster.pdf"


def test_rendering_leaves_the_garbage_collector_as_it_found_it(monkeypatch):
    import gc

    assert gc.isenabled()
    assert pdf.html_to_pdf("<p>on</p>", cache=False).startswith(b"%PDF-")
    assert gc.isenabled()
    gc.disable()
    try:
        pdf.html_to_pdf("<p>off</p>", cache=False)
        assert not gc.isenabled()  # the caller's choice is kept
    finally:
        gc.enable()
    monkeypatch.setattr(pdf, "PDF_TIME_LIMIT_SECONDS", 0.001)  # refused mid-layout: collecting again all the same
    with pytest.raises(pdf.PdfRefused):
        pdf.html_to_pdf("<p>x</p>" * 2000, cache=False)
    assert gc.isenabled()
