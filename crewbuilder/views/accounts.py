from django.contrib.auth import login
from django.contrib.auth.views import PasswordResetView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from crewbuilder import throttle
from crewbuilder.forms_accounts import SignUpForm


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if not throttle.allow(throttle.SIGNUP_PER_CLIENT, throttle.client_ip(request)):
            form.add_error(None, throttle.refusal(throttle.SIGNUP_PER_CLIENT, "new accounts"))
            return render(request, "registration/signup.html", {"form": form}, status=429)
        user = form.save()
        login(request, user, backend="crewbuilder.auth_backend.CachedModelBackend")
        request.session["just_signed_up"] = True  # the home page greets a new player, not a returning one
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


class ThrottledPasswordReset(PasswordResetView):
    """Django's reset form, with a cap on e-mails per address and per client.

    Counted per address asked for, whether or not an account has it, so the
    refusal tells nothing about who is registered.
    """

    def form_valid(self, form):
        limits = (
            (throttle.RESET_PER_CLIENT, throttle.client_ip(self.request)),
            (throttle.RESET_PER_EMAIL, form.cleaned_data["email"]),
        )
        for limit, value in limits:
            if not throttle.allow(limit, value):
                form.add_error(None, throttle.refusal(limit, "password-reset e-mails"))
                return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().form_valid(form)


password_reset = ThrottledPasswordReset.as_view()
