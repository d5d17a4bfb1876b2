"""Run calls at the same moment in threads (concurrency tests of the game apps)."""

import threading

from django.db import connection


def race(calls, expected_error) -> list:
    """Start every call together; each outcome is "ok", the message of an
    ``expected_error``, or "<Type>: message" for anything else (so a test's
    assertion shows it)."""
    barrier = threading.Barrier(len(calls))
    outcomes = [None] * len(calls)

    def run(i, fn):
        barrier.wait()
        try:
            fn()
            outcomes[i] = "ok"
        except expected_error as exc:
            outcomes[i] = str(exc)
        except Exception as exc:  # noqa: BLE001 - reported in the caller's assertion
            outcomes[i] = f"{type(exc).__name__}: {exc}"
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, fn)) for i, fn in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes
