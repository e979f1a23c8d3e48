import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()


def _settle() -> None:
    """Load what every worker keeps for its life (the views behind every URL, the project's
    templates, compiled) and take it out of the garbage collector's sight (gc.freeze).

    A request leaves some cyclic garbage behind (a booking about 600 objects: forms and
    their bound fields, the request and its session), so the collector runs every few
    requests; now and then it runs in full, over everything the worker holds. In a
    worker's thousand bookings such a full collection paused one booking for 100 to 190
    ms; with the worker's own objects frozen there was none (README, Benchmarks)."""
    from django.conf import settings
    from django.template import engines
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 (imports every view)
    engine = engines["django"]
    for folder in settings.TEMPLATES[0]["DIRS"]:
        for path in sorted(folder.rglob("*.html")):
            engine.get_template(str(path.relative_to(folder)))
    gc.collect()
    gc.freeze()


_settle()
