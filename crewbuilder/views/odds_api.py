"""POST /api/odds/ — the JSON door to the odds engine (odds-format.md)."""

import json

from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from crewbuilder.odds_weapons import catalogue_weapons
from rules import OddsRequestError, odds

MAX_REQUEST_BYTES = 16 * 1024


# Read-only and stateless: it changes nothing and reads no user data, so
# other programs may call it without a session or CSRF token.
@csrf_exempt
@require_POST
def odds_endpoint(request: HttpRequest) -> JsonResponse:
    if len(request.body) > MAX_REQUEST_BYTES:
        return JsonResponse({"error": "request too large (16 KiB at most)"}, status=413)
    try:
        answer = odds(json.loads(request.body), weapons=catalogue_weapons())
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        return JsonResponse({"error": f"not JSON: {exc}"}, status=400)
    except RecursionError:  # "[[[[...": 16 KiB of nesting is deeper than the parser goes
        return JsonResponse({"error": "not JSON: nested too deeply"}, status=400)
    except OddsRequestError as exc:
        return JsonResponse({"error": str(exc)}, status=400)
    return JsonResponse(answer)
