"""POST /api/odds/ — the JSON door to the odds engine (odds-format.md)."""

from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from crewbuilder.odds_weapons import catalogue_weapons
from rules import OddsRequestError, odds
from rules.odds import read_request

MAX_REQUEST_BYTES = 16 * 1024


# Read-only and stateless: it changes nothing and reads no user data, so
# other programs may call it without a session or CSRF token.
@csrf_exempt
@require_POST
def odds_endpoint(request: HttpRequest) -> JsonResponse:
    if len(request.body) > MAX_REQUEST_BYTES:
        return JsonResponse({"error": "request too large (16 KiB at most)"}, status=413)
    try:
        answer = odds(read_request(request.body), weapons=catalogue_weapons())
    except OddsRequestError as exc:
        return JsonResponse({"error": str(exc)}, status=400)
    return JsonResponse(answer)
