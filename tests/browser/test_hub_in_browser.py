"""A learner on the classroom hub, in headless Chromium: the login form with the session's password, the start form
where they pick Russian, nbgitpuller's page pulling the course (the hub's first page when CLASSROOM_REPO is set),
notebook 1 of their language opening in JupyterLab; then the Russian notebook 7, Run All, and a click on
«Подтвердить» at the approval prompt: !485 is merged in this learner's own demo GitLab.

Skipped where chromium (see conftest.py) or the hub (tests/classroom/classroom_hub.py) is missing; in CI as root
either is a failure."""

import json
import os
import sys
from pathlib import Path

import pytest

from lab_server import SCREENSHOTS, SETTINGS
from test_in_jupyterlab import GUARDED_CELL, WORDS, approval_prompt, cell

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "classroom"))

from classroom_hub import PASSWORD, course_repository, missing, running_hub, served_repository  # noqa: E402

LEARNER = "vera"


@pytest.fixture(scope="module")
def hub(tmp_path_factory, browser):
    reason = missing()
    in_ci = os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")
    if reason and in_ci and os.geteuid() == 0:  # as tests/browser/conftest.py's must_run()
        pytest.fail(f"the classroom hub cannot run in CI as root: {reason}", pytrace=False)
    if reason:
        pytest.skip(f"classroom hub skipped: {reason}")
    where = tmp_path_factory.mktemp("hub-browser")
    repo = course_repository(tmp_path_factory.mktemp("repo"))
    with served_repository(repo) as url, \
            running_hub(where, CLASSROOM_REPO=url, CLASSROOM_LANGUAGE="en") as running:
        settings = running.homes / LEARNER / ".jupyter" / "lab" / "user-settings"  # the learner's JupyterLab
        for name, values in SETTINGS.items():  # settings, before their first start (then theirs, as their home)
            (settings / name).parent.mkdir(parents=True, exist_ok=True)
            (settings / name).write_text(json.dumps(values))
        yield running


def test_a_learner_logs_in_gets_the_course_in_russian_and_approves_a_merge(page, hub):
    words = WORDS["ru"]
    page.goto(f"{hub.url}/hub/login")
    page.locator("#username_input").fill(LEARNER)
    page.locator("#password_input").fill(PASSWORD)
    page.locator("#login_submit").click()
    page.locator("select[name=language]").select_option("ru")  # the start form: the course's language
    page.locator("form#spawn_form [type=submit]").click()
    page.wait_for_url(f"**/user/{LEARNER}/lab/tree/course/notebooks/ru/01_single_call.ipynb", timeout=240_000)
    page.locator(".jp-Notebook .jp-Cell").first.wait_for()
    assert (hub.homes / LEARNER / "course" / ".git").is_dir(), "nbgitpuller cloned the course into the home"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "hub-ru-notebook-1.png"))

    page.goto(f"{hub.url}/user/{LEARNER}/lab/workspaces/seven/tree/course/notebooks/ru/07_safety.ipynb?reset")
    page.locator(".jp-Notebook").first.wait_for()
    page.locator(".jp-StatusBar-Widget", has_text="Idle").first.wait_for()
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.locator('li[data-command="runmenu:run-all"]').click()
    prompt = approval_prompt(page, words)
    prompt.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "hub-ru-approval-before.png"))
    prompt.get_by_role("button", name=words["approve"]).click()
    cell(page, GUARDED_CELL).locator(".jp-OutputArea-output", has_text=f"{words['moved']} True").first.wait_for()
    assert words["approved"] in prompt.inner_text()
    page.screenshot(path=str(SCREENSHOTS / "hub-ru-approval-after.png"))
