"""Account pages of our own: sign-up and profile. Login, logout and the password pages are
Django's views with our forms and templates (clubs.account_urls)."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login, logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render, resolve_url
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods, require_POST

from clubs import services, throttle
from clubs.account_forms import DeleteAccountForm, ProfileForm, SignupForm
from clubs.forms import save_unless_taken
from clubs.models import german_order
from clubs.players import open_balances
from evenings.models import Evening

# Django's own unique username, and ours that ignores case (clubs migration 0003).
USERNAME_CONSTRAINTS = ("auth_user_username_key", "auth_user_username_lower_unique")


def safe_next(request: HttpRequest) -> str:
    """The `next` the visitor asked for if it is a path on this site, else ""."""
    candidate = request.POST.get("next", request.GET.get("next", ""))
    # Only a path: redirect() would take "start" or "a b" for the name of a view.
    if candidate.startswith("/") and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return ""


@require_http_methods(["GET", "POST"])
@sensitive_post_parameters("password1", "password2")
@never_cache
def signup(request: HttpRequest) -> HttpResponse:
    # An invitation link sends newcomers here with ?next=/einladung/<token>/; they carry
    # on there once they have an account.
    next_url = safe_next(request)
    if request.user.is_authenticated:
        return redirect(next_url or resolve_url(settings.LOGIN_REDIRECT_URL))

    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = save_unless_taken(
            form, form.save, USERNAME_CONSTRAINTS, "username", form.username_taken
        )
        if user is not None:
            login(request, user)
            response = redirect(next_url or resolve_url(settings.LOGIN_REDIRECT_URL))
            throttle.remember_device(request, response, user.get_username())
            return response
    # Both password fields come back empty (never sent back): said at the first, which
    # gets the focus; a password refused says so at its own field.
    if form.has_error("password2", "password_mismatch"):
        del form.errors["password2"]
        form.add_error(
            "password1",
            _(
                "Die beiden Passwörter waren nicht gleich. Bitte hier und darunter noch "
                "einmal eingeben."
            ),
        )
    elif form.errors and "password1" not in form.errors:
        form.add_error("password1", _("Bitte das Passwort hier und darunter noch einmal eingeben."))
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


@require_http_methods(["GET", "POST"])
@login_required
def profile(request: HttpRequest) -> HttpResponse:
    # A fresh copy, not request.user: an invalid form writes its valid fields onto its
    # instance, and the page header would then show a name that was never saved.
    me = get_user_model().objects.get(pk=request.user.pk)
    form = ProfileForm(request.POST or None, instance=me)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Dein Profil ist gespeichert."))
        return redirect("profile")
    return _profile_page(request, form, DeleteAccountForm(request.user))


@require_POST
@login_required
@sensitive_post_parameters("password")
@never_cache
def account_delete(request: HttpRequest) -> HttpResponse:
    """The login deleted at its owner's wish (clubs.services.delete_account), after their
    password once more; they are logged out on every device."""
    form = DeleteAccountForm(request.user, request.POST)
    if form.is_valid():
        try:
            services.delete_account(request.user)
        except services.ClubError as error:
            form.add_error(None, str(error))
        else:
            logout(request)
            messages.success(
                request,
                _("Dein Konto ist gelöscht. Deine Spiele bleiben in den Vereinen gebucht."),
            )
            return redirect("login")
    me = get_user_model().objects.get(pk=request.user.pk)
    return _profile_page(request, ProfileForm(instance=me), form)


def _profile_page(request: HttpRequest, form, delete_form) -> HttpResponse:
    """The profile with its two forms; beside "Konto löschen", the clubs that need
    another admin first and the balances left open (as on leaving a club)."""
    own = list(
        request.user.players.filter(club__memberships__user=request.user)
        .select_related("club")
        .order_by(german_order("club__name"))
    )
    balances = open_balances(own) if own else {}
    only_member_of = services.only_member_of(request.user)
    # Booked for them still, as on leaving a club (walk 80: said there, not here); in a
    # club they are the last member of, nobody is left to go on (walk 85: both were said).
    seated_at = (
        list(
            Evening.objects.playing_for_money()
            .filter(seats__player__in=own)
            .select_related("runde__club")
            .order_by("started_at")
        )
        if own
        else []
    )
    for evening in seated_at:
        evening.left_alone = evening.runde.club in only_member_of
    return render(
        request,
        "registration/profile.html",
        {
            "form": form,
            "delete_form": delete_form,
            "sole_admin_of": services.sole_admin_of(request.user),
            "only_member_of": only_member_of,
            # By club: two clubs may each have a "Stammtisch" (walk 80).
            "open_balances": [
                (player.club.name, balances[player.pk]) for player in own if balances[player.pk]
            ],
            "seated_at": seated_at,
        },
    )
