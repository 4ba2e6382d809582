"""pytest plugin that conformance/tck/run.mjs loads into the official A2A TCK (``-p a2a_kit_tck``).

It changes nothing the TCK checks; it only makes the run fit this repository's CI:

* ``A2A-Version`` on every request (HTTP through httpx or requests, and gRPC metadata): the TCK's
  transport clients send it only when told to, and several of its tests build requests by hand.
  A request without it means 0.3 (§3.6.2), which a 1.0 agent rightly refuses. A request that sets the
  header itself keeps its own value.
* The push webhook: the TCK binds it to port 8888 and advertises ``http://localhost:8888/webhook``.
  With ``A2A_KIT_TCK_WEBHOOK_PORT`` set, the server binds that port instead and the URL the fixture
  hands to the tests names it, so several runs (or another program on 8888) do not collide.
* With ``A2A_KIT_TCK_RESULTS`` set, one JSON line per test is appended to that file (node id, outcome,
  the first line of the failure), which the runner reads instead of parsing pytest's reports.
"""

import json
import os

import pytest

VERSION = os.environ.get("A2A_KIT_TCK_VERSION", "1.0")
WEBHOOK_PORT = int(os.environ.get("A2A_KIT_TCK_WEBHOOK_PORT", "8888"))
TCK_WEBHOOK_PORT = 8888


def _add_version(headers):
    """Headers (any mapping, or None) with A2A-Version added unless already present."""
    out = dict(headers or {})
    if not any(str(k).lower() == "a2a-version" for k in out):
        out["A2A-Version"] = VERSION
    return out


def _patch_httpx():
    try:
        import httpx
    except ImportError:
        return
    for cls in (httpx.Client, httpx.AsyncClient):
        original = cls.__init__

        def init(self, *args, __original=original, **kwargs):
            kwargs["headers"] = _add_version(kwargs.get("headers"))
            __original(self, *args, **kwargs)

        cls.__init__ = init


def _patch_requests():
    try:
        import requests
    except ImportError:
        return
    original = requests.Session.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        self.headers.setdefault("A2A-Version", VERSION)

    requests.Session.__init__ = init


def _patch_grpc():
    try:
        import grpc
    except ImportError:
        return

    class Details(grpc.ClientCallDetails):
        def __init__(self, d, metadata):
            self.method = d.method
            self.timeout = d.timeout
            self.metadata = metadata
            self.credentials = d.credentials
            self.wait_for_ready = getattr(d, "wait_for_ready", None)
            self.compression = getattr(d, "compression", None)

    def with_version(details):
        metadata = list(details.metadata or [])
        if not any(k.lower() == "a2a-version" for k, _ in metadata):
            metadata.append(("a2a-version", VERSION))
        return Details(details, metadata)

    class Version(
        grpc.UnaryUnaryClientInterceptor,
        grpc.UnaryStreamClientInterceptor,
        grpc.StreamUnaryClientInterceptor,
        grpc.StreamStreamClientInterceptor,
    ):
        def intercept_unary_unary(self, cont, details, request):
            return cont(with_version(details), request)

        def intercept_unary_stream(self, cont, details, request):
            return cont(with_version(details), request)

        def intercept_stream_unary(self, cont, details, requests):
            return cont(with_version(details), requests)

        def intercept_stream_stream(self, cont, details, requests):
            return cont(with_version(details), requests)

    for name in ("insecure_channel", "secure_channel"):
        original = getattr(grpc, name)

        def channel(*args, __original=original, **kwargs):
            return grpc.intercept_channel(__original(*args, **kwargs), Version())

        setattr(grpc, name, channel)
    _patch_grpc_aio(grpc)


def _patch_grpc_aio(grpc):
    """The TCK's streaming calls go through grpc.aio channels, which take interceptors at creation."""
    from grpc import aio

    def with_version(details):
        metadata = aio.Metadata(*(details.metadata or ()))
        if "a2a-version" not in metadata:
            metadata.add("a2a-version", VERSION)
        return aio.ClientCallDetails(
            details.method, details.timeout, metadata, details.credentials, details.wait_for_ready
        )

    class UnaryUnary(aio.UnaryUnaryClientInterceptor):
        async def intercept_unary_unary(self, cont, details, request):
            return await cont(with_version(details), request)

    class UnaryStream(aio.UnaryStreamClientInterceptor):
        async def intercept_unary_stream(self, cont, details, request):
            return await cont(with_version(details), request)

    for name in ("insecure_channel", "secure_channel"):
        original = getattr(aio, name)

        def channel(*args, __original=original, **kwargs):
            kwargs["interceptors"] = [UnaryUnary(), UnaryStream(), *(kwargs.get("interceptors") or [])]
            return __original(*args, **kwargs)

        setattr(aio, name, channel)


def _patch_webhook_port():
    if WEBHOOK_PORT == TCK_WEBHOOK_PORT:
        return
    try:
        from aiohttp import web
    except ImportError:
        return
    original = web.TCPSite.__init__

    def init(self, runner, host=None, port=None, *args, **kwargs):
        if port == TCK_WEBHOOK_PORT:
            port = WEBHOOK_PORT
        original(self, runner, host, port, *args, **kwargs)

    web.TCPSite.__init__ = init


_patch_httpx()
_patch_requests()
_patch_grpc()
_patch_webhook_port()


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef, request):
    """The webhook fixture's URL names the port the server was really bound to."""
    outcome = yield
    if WEBHOOK_PORT == TCK_WEBHOOK_PORT or fixturedef.argname != "push_notification_webhook":
        return
    value = outcome.get_result()
    if isinstance(value, dict) and isinstance(value.get("url"), str):
        value["url"] = value["url"].replace(f":{TCK_WEBHOOK_PORT}/", f":{WEBHOOK_PORT}/")


RESULTS = os.environ.get("A2A_KIT_TCK_RESULTS")


def _outcome(report):
    if hasattr(report, "wasxfail"):
        return "xfailed" if report.skipped else "xpassed"
    if report.when != "call" and report.failed:
        return "error"
    return report.outcome


def _reason(report):
    if report.passed:
        return ""
    if report.skipped and isinstance(report.longrepr, tuple):
        return str(report.longrepr[2])[:300]
    lines = (getattr(report, "longreprtext", "") or "").strip().splitlines()
    errors = [line[1:].strip() for line in lines if line.startswith("E ")]
    return (errors[0] if errors else lines[-1] if lines else "")[:300]


def pytest_runtest_logreport(report):
    """One line per test: its call outcome, or a setup/teardown failure or skip."""
    if not RESULTS:
        return
    if report.when == "call" or (report.when == "setup" and not report.passed) or (
        report.when == "teardown" and report.failed
    ):
        line = {"id": report.nodeid, "outcome": _outcome(report), "when": report.when}
        reason = _reason(report)
        if reason:
            line["reason"] = reason
        with open(RESULTS, "a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")
