"""The course as a learner uses it: JupyterLab in a real (headless) browser, Run All, real clicks."""

import re

import pytest

from lab_server import NOTEBOOKS, SCREENSHOTS, copy_cleared

GUARDED_CELL = "guarded = await"


def open_and_run_all(page, lab, notebook, copy_as=None):
    """Open a cleared copy of the notebook, wait for its kernel, and Run All from the menu."""
    workdir, url, token = lab
    target = notebook
    if copy_as:
        target = copy_cleared(notebook, workdir).rename(workdir / copy_as)
    workspace = re.sub(r"\W", "-", target.stem)  # a fresh workspace: only this notebook is open
    page.goto(f"{url}/lab/workspaces/{workspace}/tree/{target.name}?reset&token={token}")
    page.locator(".jp-Notebook").first.wait_for()
    page.locator(".jp-StatusBar-Widget", has_text="Idle").first.wait_for()  # the kernel is up
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.locator('li[data-command="runmenu:run-all"]').click()


def cell(page, source_text):
    return page.locator(".jp-Cell:visible", has_text=source_text).first


def approval_prompt(page):
    prompt = page.locator(".jp-OutputArea-output:visible", has_text="The agent wants to call").first
    prompt.wait_for()
    assert "merge_pr" in prompt.inner_text() and "485" in prompt.inner_text()
    return prompt


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("decision", ["approve", "deny"])
def test_safety_notebook_asks_before_merging(page, lab, language, decision):
    open_and_run_all(page, lab, NOTEBOOKS / language / "07_safety.ipynb", f"07_safety-{decision}-{language}.ipynb")
    prompt = approval_prompt(page)
    view = page.locator(".widget-html-content:visible", has_text="#4 assistant").first
    view.wait_for()  # the live view already shows the model's request to merge
    assert "merge_pr" in view.inner_text()
    prompt.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / f"approval-{language}-{decision}-before.png"))
    prompt.get_by_role("button", name="Approve" if decision == "approve" else "Deny").click()
    guarded = cell(page, GUARDED_CELL)
    moved = "main moved: True" if decision == "approve" else "main moved: False"
    guarded.locator(".jp-OutputArea-output", has_text=moved).first.wait_for()
    status = prompt.inner_text()
    assert ("Approved" if decision == "approve" else "Denied") in status and "clicked" in status
    assert prompt.get_by_role("button", name="Approve").is_disabled()
    result_card = page.locator(".widget-html-content:visible", has_text="#5 user").first
    if decision == "approve":
        assert re.search(r"Merged !485 into main as [0-9a-f]{40}", result_card.inner_text())
        assert "ERROR" not in result_card.inner_text()
    else:
        assert "ERROR" in result_card.inner_text() and "A human refused this call" in result_card.inner_text()
    prompt.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / f"approval-{language}-{decision}-after.png"))


def test_loop_notebook_ends_with_the_review_and_end_turn(page, lab):
    open_and_run_all(page, lab, NOTEBOOKS / "en" / "03_the_loop.ipynb", "03_the_loop-browser.ipynb")
    final = page.locator(".widget-html-content:visible", has_text="#6 assistant").first
    final.wait_for()
    text = final.inner_text()
    assert "stop_reason end_turn" in text and "Verdict: request changes." in text
    assert "shop/checkout.py:20" in text
    final.scroll_into_view_if_needed()


def test_stepper_walks_a_review_one_call_per_click(page, lab):
    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook
    workdir, url, token = lab
    nb = new_notebook(cells=[new_code_cell(
        "from course_agent.client import make_client\n"
        "from course_agent.review import review\n"
        "from course_agent.widgets import Stepper\n\n"
        "stepper = Stepper(lambda observers: review(482, client=make_client(), observers=observers)).start()\n"
        "stepper")])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, workdir / "stepper.ipynb")
    open_and_run_all(page, lab, workdir / "stepper.ipynb")
    next_button = page.locator(".jp-OutputArea-output").get_by_role("button", name="Next")
    for step, stop in ((1, "tool_use"), (2, "tool_use"), (3, "end_turn")):
        page.get_by_text(f"Request {step}:").first.wait_for()
        next_button.click()
        page.get_by_text(f"Response {step}: stop_reason {stop}").first.wait_for()
    page.get_by_text("done after 3 API call(s): end_turn").first.wait_for()
    assert next_button.is_disabled()
