"""Browser tests: Debian's chromium driven by Playwright, against JupyterLab on 127.0.0.1.

Skipped, with a message saying why, where chromium or playwright is missing (a developer
machine). In CI running as root (`.ci/run` sets CI=true and installs chromium), a missing
browser is a failure, not a skip: otherwise a failed install would pass CI with every browser
test skipped. Screenshots of every test's end state (and of failures) go to artifacts/browser/.
"""

import os

import pytest

from lab_server import CHROMIUM, CHROMIUM_ARGS, SCREENSHOTS, jupyterlab


def _missing() -> str | None:
    if not os.path.exists(CHROMIUM):
        return "chromium is not installed (Debian: apt-get install chromium); .ci/run installs it"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[test]')"
    return None


def must_run() -> bool:
    """True in CI as root: there the browser can be installed, so it must be."""
    in_ci = os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")
    return in_ci and hasattr(os, "geteuid") and os.geteuid() == 0


@pytest.fixture(scope="module")
def browser():
    """Chromium, for this module's tests only: Playwright's sync API keeps an event loop running in the
    thread until it stops, and a later test in the same worker may call asyncio.run()."""
    reason = _missing()
    if reason and must_run():
        pytest.fail(f"browser tests cannot run in CI as root: {reason}", pytrace=False)
    if reason:
        pytest.skip(f"browser tests skipped: {reason}")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@pytest.fixture(scope="module")
def lab(tmp_path_factory, browser):
    """A JupyterLab on a temporary folder; the kernels it starts must wait for real clicks."""
    workdir = tmp_path_factory.mktemp("lab")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "GITLAB_", "COURSE_AGENT_"))}
    with jupyterlab(workdir, env) as (url, token):
        yield workdir, url, token


@pytest.fixture
def page(browser, request):
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(120_000)
    yield page
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    failed = getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed
    page.screenshot(path=str(SCREENSHOTS / f"{request.node.name}{'-FAILED' if failed else ''}.png"))
    context.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call":
        item.rep_call = report
