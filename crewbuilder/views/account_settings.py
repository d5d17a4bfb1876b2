"""The player's settings: the paper PDFs print on (saved only by this POST)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from crewbuilder.forms_settings import PaperForm


@login_required
@require_http_methods(["GET", "POST"])
def account_settings(request: HttpRequest) -> HttpResponse:
    form = PaperForm(request.POST or None, instance=request.user)
    if request.method == "POST":
        if form.is_valid():
            form.save()
            messages.success(request, f"PDFs now print on {request.user.get_paper_size_display()}.")
            return redirect("account-settings")
        return render(request, "registration/account_settings.html", {"form": form}, status=422)
    return render(request, "registration/account_settings.html", {"form": form})
