"""What every PDF view shares: the paper to print on and the response that carries the PDF.

The paper comes from ``?paper=A4|LETTER`` (for that one PDF) or else from the
user's saved setting, which only the account settings form (a POST) changes:
a GET, which any site can make a browser send, never writes.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse

from core import pdf


def paper_for(request: HttpRequest) -> str:
    """The paper asked for in ?paper= for this response, else the user's saved one."""
    user = request.user
    saved = getattr(user, "paper_size", None) if user.is_authenticated else None
    asked = pdf.normalize_paper(request.GET.get("paper") or "", default="")
    return asked or pdf.normalize_paper(saved)


def pdf_response(data: bytes, filename: str, *, shared: bool = False) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Content-Length"] = str(len(data))
    response["Cache-Control"] = "private, no-cache"
    if shared:
        response["X-Robots-Tag"] = "noindex"
        response["Referrer-Policy"] = "no-referrer"
    return response
