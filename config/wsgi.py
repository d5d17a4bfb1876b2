import gc
import os

from django.core.wsgi import get_wsgi_application
from django.db import connections
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

# `make serve` loads this module once in gunicorn's master (--preload) and forks the workers from it:
# importing every view now (the URLconf) spares each new worker, a recycled one included, that import
# on its first request (about 0.4 s of CPU, while the table keeps polling the others).
get_resolver().url_patterns
# A connection opened before the fork would be one socket or file shared by every worker.
connections.close_all()
# What is loaded so far lives as long as the process: kept out of the garbage collector's scans, a
# forked worker's collections neither walk it nor copy the master's memory they would touch.
gc.freeze()
